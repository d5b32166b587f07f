import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { finished, runCli, startCli } from './helpers.js';
import { MUST_RUN, containersOf, dockerUnavailable, sandboxWorkspace } from './sandbox-helpers.js';

// `sandbox: { kind: docker }` against the real engine: the bash tool's commands run in a
// container of the image that `bash tooling/ci/sandbox-engines.sh` builds.

let unavailable: string | undefined;
beforeAll(async () => {
  unavailable = await dockerUnavailable();
  if (unavailable && MUST_RUN) throw new Error(`CI=true: ${unavailable}`);
});

function skipWithout(context: { skip: (note?: string) => void }): void {
  if (unavailable) context.skip(unavailable);
}

describe('the bash tool with sandbox kind docker', () => {
  it('runs as a user that is not root in /workspace, and writes only the workspace', async (context) => {
    skipWithout(context);
    const work = await sandboxWorkspace('{ kind: docker, limits: { memory: 256m, pids: 128, cpus: 1 } }');
    try {
      const child = startCli(
        [
          'tools',
          'call',
          'bash',
          '--json',
          '--args',
          JSON.stringify({ command: 'id -u; pwd; echo inside > made.txt; echo x > /etc/escape' }),
        ],
        { cwd: work.path },
      );
      const pid = child.pid as number;
      child.stdin?.end();
      const outcome = await finished(child, 120_000);
      expect(outcome.code).toBe(0);
      const result = JSON.parse(outcome.stdout) as {
        ok: boolean;
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
      expect(text).toMatch(/\[sandbox\] a write hit a read-only path/);
      expect(await readFile(join(work.path, 'made.txt'), 'utf8')).toBe('inside\n');
      // the CLI's runtime closed: none of its containers is left
      expect(await containersOf(pid)).toEqual([]);
    } finally {
      await work.cleanup();
    }
  });

  it('fails a command closed with the sandbox code and a hint when the image is missing', async (context) => {
    skipWithout(context);
    const work = await sandboxWorkspace('{ kind: docker, image: "toolplane-no-such-image:missing" }');
    try {
      const outcome = await runCli(['tools', 'call', 'bash', '--args', '{"command":"echo ran"}'], {
        cwd: work.path,
        timeoutMs: 120_000,
      });
      expect(outcome.code).toBe(1);
      expect(outcome.stdout).not.toContain('ran');
      expect(outcome.stderr).toMatch(
        /error CONFIG_INVALID: the sandbox image toolplane-no-such-image:missing/,
      );
      expect(outcome.stderr).toMatch(/hint: SANDBOX_IMAGE_MISSING: run `toolplane doctor`/);
    } finally {
      await work.cleanup();
    }
  });

  it('runs on the host with fallback host, and the result says so', async (context) => {
    skipWithout(context);
    const work = await sandboxWorkspace(
      '{ kind: docker, image: "toolplane-no-such-image:missing", fallback: host }',
    );
    try {
      const outcome = await runCli(
        ['tools', 'call', 'bash', '--json', '--args', '{"command":"echo on-host; pwd"}'],
        { cwd: work.path, timeoutMs: 120_000 },
      );
      expect(outcome.code).toBe(0);
      const result = JSON.parse(outcome.stdout) as {
        structured: { exitCode: number; notes?: string[] };
        content: { text: string }[];
      };
      const text = result.content.map((block) => block.text).join('\n');
      expect(text).toContain('on-host');
      // on the host the working directory is the workspace's host path, not /workspace
      expect(text).not.toMatch(/^\/workspace$/m);
      expect(result.structured.notes?.at(-1)).toMatch(
        /^\[sandbox\] the docker sandbox is unavailable \(SANDBOX_IMAGE_MISSING: .*\); this command ran on the host, unconfined$/,
      );
    } finally {
      await work.cleanup();
    }
  });
});

describe('toolplane doctor with sandbox kind docker', () => {
  it('names a missing image with its code and the command that makes it', async (context) => {
    skipWithout(context);
    const work = await sandboxWorkspace('{ kind: docker, image: "toolplane-no-such-image:missing" }');
    try {
      // one after the other: two processes on one workspace share its protected-path placeholders
      const text = await runCli(['doctor'], { cwd: work.path, timeoutMs: 120_000 });
      const json = await runCli(['doctor', '--json'], { cwd: work.path, timeoutMs: 120_000 });
      expect(text.code).toBe(1);
      expect(text.stdout).toMatch(/^sandbox docker: engine ok /m);
      expect(text.stdout).toMatch(
        /^sandbox docker: image FAILED SANDBOX_IMAGE_MISSING: the sandbox image toolplane-no-such-image:missing is not on the Docker engine/m,
      );
      expect(text.stdout).toMatch(/hint: .*docker pull toolplane-no-such-image:missing.*sandbox-engines\.sh/);
      expect(text.stdout).toMatch(/the docker sandbox does not work/);
      expect(json.code).toBe(1);
      const report = JSON.parse(json.stdout) as {
        ok: boolean;
        sandbox: { kind: string; ok: boolean; checks: { check: string; ok: boolean; code?: string }[] };
      };
      expect(report.ok).toBe(false);
      expect(report.sandbox.kind).toBe('docker');
      expect(report.sandbox.checks.map((check) => [check.check, check.ok, check.code])).toEqual([
        ['engine', true, undefined],
        ['image', false, 'SANDBOX_IMAGE_MISSING'],
      ]);
    } finally {
      await work.cleanup();
    }
  });

  it('reports the engine, the image and a command that ran when all is in place', async (context) => {
    skipWithout(context);
    const work = await sandboxWorkspace('{ kind: docker }');
    try {
      const outcome = await runCli(['doctor', '--json'], { cwd: work.path, timeoutMs: 120_000 });
      expect(outcome.code).toBe(0);
      const report = JSON.parse(outcome.stdout) as {
        ok: boolean;
        sandbox: { ok: boolean; checks: { check: string; ok: boolean }[] };
      };
      expect(report.ok).toBe(true);
      expect(report.sandbox.checks.map((check) => [check.check, check.ok])).toEqual([
        ['engine', true],
        ['image', true],
        ['command', true],
      ]);
    } finally {
      await work.cleanup();
    }
  });

  it('names an unreachable engine with its code', async (context) => {
    skipWithout(context);
    const work = await sandboxWorkspace('{ kind: docker }');
    try {
      const outcome = await runCli(['doctor', '--json'], {
        cwd: work.path,
        timeoutMs: 120_000,
        env: { DOCKER_HOST: `unix://${join(work.path, 'no-engine.sock')}` },
      });
      expect(outcome.code).toBe(1);
      const report = JSON.parse(outcome.stdout) as {
        sandbox: { checks: { check: string; ok: boolean; code?: string; hint?: string }[] };
      };
      expect(report.sandbox.checks).toEqual([
        expect.objectContaining({ check: 'engine', ok: false, code: 'SANDBOX_ENGINE_UNREACHABLE' }),
      ]);
      expect(report.sandbox.checks[0]?.hint).toContain('DOCKER_HOST');
    } finally {
      await work.cleanup();
    }
  });
});
