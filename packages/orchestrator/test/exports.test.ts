import { expect, it } from 'vitest';
import * as core from '@toolplane/core';
import * as orchestrator from '../src/index.js';

it('pins the runtime export list of @toolplane/orchestrator', () => {
  expect(Object.keys(orchestrator).sort()).toEqual([
    'MAX_BATCH_CALLS',
    'MAX_SESSION_ID_LENGTH',
    'ToolsOrchestrator',
    'createOrchestrator',
  ]);
});

it('pins the runtime export list of @toolplane/core', () => {
  expect(Object.keys(core).sort()).toEqual([
    'DEFAULT_MAX_SCHEMA_NODES',
    'ERROR_CODES',
    'MIDDLEWARE_PHASES',
    'NAMESPACE_SEPARATOR',
    'PROVIDER_SPEC_VERSION',
    'RISK_LEVELS',
    'TOOL_NAME_MAX_LENGTH',
    'TOOL_NAME_PATTERN',
    'ToolError',
    'UNREADABLE_ERROR_MESSAGE',
    'allocateToolNames',
    'compareRisk',
    'compileSchema',
    'contentBytes',
    'contentText',
    'createId',
    'createLocalProvider',
    'createOpNode',
    'createRateLimiter',
    'createToolContext',
    'defineTool',
    'describeInvalidResult',
    'errorMessage',
    'extendContext',
    'fail',
    'failFromError',
    'formatIssues',
    'formatOpTree',
    'isIdempotent',
    'isReadOnly',
    'isRetryableCode',
    'ok',
    'onAbort',
    'qualifyToolName',
    'riskOf',
    'sanitizeToolName',
    'splitToolName',
    'stableStringify',
    'terminalJson',
    'terminalLine',
    'terminalText',
    'textContent',
    'toToolResult',
    'utf8Length',
    'zodIssues',
    'zodToJsonSchema',
  ]);
});
