import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';
import { MUST_RUN, bwrapUnavailable, sandboxWorkspace } from './sandbox-helpers.js';

// `sandbox: { kind: bwrap }` with the real bubblewrap: each bash command runs in a fresh jail.

let unavailable: string | undefined;
beforeAll(async () => {
  unavailable = await bwrapUnavailable();
  if (unavailable && MUST_RUN) throw new Error(`CI=true: ${unavailable}`);
});

describe('the bash tool with sandbox kind bwrap', () => {
  it('runs in /workspace as a user that is not root, and a write to a system path fails with a note', async (context) => {
    if (unavailable) context.skip(unavailable);
    const work = await sandboxWorkspace('{ kind: bwrap, limits: { pids: 128 } }');
    try {
      const outcome = await runCli(
        [
          'tools',
          'call',
          'bash',
          '--json',
          '--args',
          JSON.stringify({ command: 'id -u; pwd; echo jailed > made.txt; echo x > /usr/escape' }),
        ],
        { cwd: work.path, timeoutMs: 120_000 },
      );
      expect(outcome.code).toBe(0);
      const result = JSON.parse(outcome.stdout) as {
        structured: { exitCode: number; notes?: string[] };
        content: { text: string }[];
      };
      const text = result.content.map((block) => block.text).join('\n');
      const [uid, cwd] = text.split('\n');
      expect(uid).toMatch(/^\d+$/);
      expect(uid).not.toBe('0');
      expect(cwd).toBe('/workspace');
      expect(result.structured.exitCode).not.toBe(0);
      expect(result.structured.notes?.join('\n')).toMatch(/^\[sandbox\] a write hit a read-only path/m);
      expect(await readFile(join(work.path, 'made.txt'), 'utf8')).toBe('jailed\n');
    } finally {
      await work.cleanup();
    }
  });

  it('is reported by doctor: bwrap, its namespaces and a command that ran', async (context) => {
    if (unavailable) context.skip(unavailable);
    const work = await sandboxWorkspace('{ kind: bwrap }');
    try {
      // one after the other: two processes on one workspace share its protected-path placeholders
      const text = await runCli(['doctor'], { cwd: work.path, timeoutMs: 120_000 });
      const json = await runCli(['doctor', '--json'], { cwd: work.path, timeoutMs: 120_000 });
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/^sandbox bwrap: namespaces ok /m);
      const report = JSON.parse(json.stdout) as { sandbox: { checks: { check: string; ok: boolean }[] } };
      expect(report.sandbox.checks.map((check) => [check.check, check.ok])).toEqual([
        ['bwrap', true],
        ['namespaces', true],
        ['command', true],
      ]);
    } finally {
      await work.cleanup();
    }
  });

  it('names a bwrap that cannot be run with its code in doctor', async (context) => {
    if (unavailable) context.skip(unavailable);
    const work = await sandboxWorkspace('{ kind: bwrap, bwrapPath: /nonexistent/bwrap }');
    try {
      const outcome = await runCli(['doctor', '--json'], { cwd: work.path, timeoutMs: 120_000 });
      expect(outcome.code).toBe(1);
      const report = JSON.parse(outcome.stdout) as {
        sandbox: { checks: { check: string; ok: boolean; code?: string; hint?: string }[] };
      };
      expect(report.sandbox.checks).toEqual([
        expect.objectContaining({ check: 'bwrap', ok: false, code: 'SANDBOX_BWRAP_MISSING' }),
      ]);
      expect(report.sandbox.checks[0]?.hint).toContain('apt-get install bubblewrap');
    } finally {
      await work.cleanup();
    }
  });
});
