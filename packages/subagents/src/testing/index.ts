// @toolplane/subagents/testing: everything exported here is public API (Node-only test helpers).
export {
  type RecordedRequest,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedReply,
  type ScriptedToolCall,
  type ScriptedUsage,
  startScriptedModel,
} from './scripted-model.js';
