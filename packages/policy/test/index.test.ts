import { describe, expect, it } from 'vitest';
import * as policy from '../src/index.js';

describe('public API', () => {
  it('exports exactly these values', () => {
    expect(Object.keys(policy).sort()).toEqual([
      'APPROVAL_REPROMPT',
      'BUILTIN_PROFILES',
      'DEFAULT_APPROVAL_TIMEOUT_MS',
      'DEFAULT_PROTECTED_PATHS',
      'PERMISSION_MODES',
      'PIPELINE_STEPS',
      'SUBAGENT_DENY',
      'SUBAGENT_LEAF_DENY',
      'TOOL_PERMISSIONS',
      'analyzeCommandLine',
      'approvalAnswer',
      'approvalQuestion',
      'checkCommandLine',
      'compileCommandPattern',
      'compileProtectedPaths',
      'createAllowList',
      'createCallbackApprovalChannel',
      'createHttpApprovalChannel',
      'createPinStore',
      'createPolicy',
      'createRateLimiter',
      'createTerminalApprovalChannel',
      'definitionHash',
      'loadShellParser',
      'normalizeCommandName',
      'policyMiddleware',
      'rateLimitMiddleware',
      'requiredPermissions',
      'runApproval',
      'stricterMode',
    ]);
  });
});
