// @toolplane/adapters: everything exported here is public API. The SDK adapters live under
// their own subpaths (./openai, ./anthropic, ./ai-sdk, ./langchain); this entry imports no SDK.
export {
  type AdapterOrchestrator,
  type BridgeOptions,
  type ToolBridge,
  createToolBridge,
} from './bridge/tool-bridge.js';
export { resultText } from './bridge/result-text.js';
export { type CompileOptions, DEFAULT_MAX_RECURSION_DEPTH, compileTool } from './dialects/compile-tool.js';
export { type CompiledTools, type RestoredCall, compileTools } from './dialects/compile-tools.js';
export {
  type ChatCompletionsFunctionTool,
  type ResponsesFunctionTool,
  toAnthropicTool,
  toChatCompletionsTool,
  toDefinition,
  toGeminiFunctionDeclaration,
  toMcpTool,
  toResponsesTool,
} from './dialects/definitions.js';
export { type ExportedTools, exportTools } from './dialects/export-tools.js';
export { formatCompatReport } from './dialects/format-report.js';
export { NAME_RULES, allocateDialectNames, dialectName } from './dialects/names.js';
export { restoreValue } from './dialects/restore.js';
export {
  type CompatEntry,
  type CompatIssue,
  type CompatReport,
  type CompatStatus,
  DIALECTS,
  type Dialect,
  type DialectTool,
  type RestorePlan,
  SEVERITIES,
  type Severity,
} from './dialects/types.js';
export { type Recorder, type RecorderOptions, createRecorder } from './record/recorder.js';
export {
  type RecordedCall,
  type RecordedTool,
  type RecordingLine,
  parseRecording,
} from './record/recording.js';
export { REPLAY_MISS, type ReplayOptions, createReplayProvider } from './record/replay-provider.js';
export { type Bm25Index, type SearchDocument, type SearchHit, createBm25Index } from './search/bm25.js';
export { TOOL_FIELD_WEIGHTS, createToolIndex } from './search/tool-index.js';
export {
  type FoundTool,
  TOOL_SEARCH_NAME,
  type ToolSearchOptions,
  createToolSearchProvider,
  foundToolNames,
} from './search/tool-search-provider.js';
export { tokenize } from './search/tokenize.js';
