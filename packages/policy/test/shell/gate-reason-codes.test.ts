import { createToolContext, ok } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createCallbackApprovalChannel, createPolicy, policyMiddleware } from '../../src/index.js';
import { bash } from '../helpers.js';

/**
 * Through the gate in bypass mode, the two lines that once ran unasked: the refusal or the
 * question names its reason code, and the command never runs without a person's answer.
 */
describe('the gate in bypass mode names the reason code', () => {
  const policy = createPolicy({ mode: 'bypass' });
  const run = async (command: string, approvals?: Parameters<typeof createCallbackApprovalChannel>[0]) => {
    const gate = policyMiddleware(
      policy,
      approvals ? { approvals: createCallbackApprovalChannel(approvals) } : {},
    );
    let ran = false;
    const result = await gate.handle?.(
      {
        tool: bash,
        args: { command },
        ctx: createToolContext({ session: { id: `gate-${command.length}` } }),
      },
      async () => {
        ran = true;
        return ok('ran');
      },
    );
    return { ran, result };
  };

  it('a script the line writes with rm -rf inside is DENIED with its category', async () => {
    const { ran, result } = await run("echo 'rm -rf x' > s.sh && sh s.sh");
    expect(ran).toBe(false);
    expect(result?.ok).toBe(false);
    if (result && !result.ok) {
      expect(result.error.code).toBe('DENIED');
      expect(result.error.message).toMatch(/^destructive-file-operation: rm with recursive and force flags/);
      expect(result.error.details).toMatchObject({
        source: 'command',
        reasonCode: 'destructive-file-operation',
      });
    }
  });

  it('a git hook written with no approval channel is APPROVAL_REQUIRED, saying why and how', async () => {
    const { ran, result } = await run('echo ok > .git/hooks/pre-commit');
    expect(ran).toBe(false);
    if (result && !result.ok) {
      expect(result.error.code).toBe('APPROVAL_REQUIRED');
      expect(result.error.message).toMatch(/^protected-path-write: writes \.git\/hooks\/pre-commit/);
      expect(result.error.message).toMatch(/asked in every mode/);
      expect(result.error.details).toMatchObject({ reasonCode: 'protected-path-write', suggestedRules: [] });
    } else expect.fail('the write ran unasked');
  });

  it('the approver sees the reason; allow-always runs it once and remembers no rule', async () => {
    const reasons: string[] = [];
    const approve = (request: { reason: string }) => {
      reasons.push(request.reason);
      return 'allow-always' as const;
    };
    const first = await run('echo ok > .git/hooks/pre-commit', approve);
    expect(first.ran).toBe(true);
    expect(reasons[0]).toMatch(/^protected-path-write: writes \.git\/hooks\/pre-commit, a protected path/);
    expect(policy.allowList.snapshot().commands).toEqual([]);
    const again = await run('echo ok > .git/hooks/pre-commit', approve);
    expect(again.ran).toBe(true);
    expect(reasons).toHaveLength(2);
  });
});
