import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeToken, fixtureServer, runCli, tempDir, writeJsonFile } from './helpers.js';

// A stdio MCP server that writes text other than JSON-RPC to its stdout (a log line, a banner)
// works, but each such line is a protocol error the operator should see: doctor names the first
// line, cut and scrubbed, instead of a bare "ok".
let dir: { path: string; cleanup(): Promise<void> };
const token = fakeToken();
beforeAll(async () => {
  dir = await tempDir();
  const noise = [
    // an escape sequence (a coloured logger) must not reach the terminal as it is
    `\u001b[31mServer listening on stdio with token=${token} ${'x'.repeat(2000)}\u001b[0m`,
    'second stray line',
    '',
  ].join('\n');
  await writeFile(join(dir.path, 'noise.txt'), noise);
  const noisy = fixtureServer({ FIXTURE_STDOUT_NOISE_FILE: join(dir.path, 'noise.txt') });
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    mcpServers: { noisy, quiet: fixtureServer() },
    builtin: false,
  });
});
afterAll(() => dir.cleanup());

describe('doctor with a stdio server that writes stray text to stdout', () => {
  it('names the first line, cut to length and scrubbed, in the table and in --json', async () => {
    const [text, json] = await Promise.all([
      runCli(['doctor'], { cwd: dir.path }),
      runCli(['doctor', '--json'], { cwd: dir.path }),
    ]);
    // the server still works: a warning, not a failure
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^noisy\s+mcp\s+ok\s+7\s.*1 warning\(s\), below/m);
    expect(text.stdout).not.toMatch(/^quiet\s.*warning/m);
    const warning = /^warning: provider noisy: (.*)$/m.exec(text.stdout)?.[1] ?? '';
    expect(warning).toMatch(/2 lines on stdout that are not JSON-RPC/);
    expect(warning).toMatch(/first: "Server listening on stdio with token=\[REDACTED/);
    expect(warning).toMatch(/stderr/);
    expect(warning).not.toContain(token);
    expect(warning.length).toBeLessThan(400);
    expect(text.stdout).not.toContain('\u001b');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as {
      providers: { provider: string; ok: boolean; warnings?: string[] }[];
    };
    const noisy = report.providers.find((row) => row.provider === 'noisy');
    expect(noisy?.ok).toBe(true);
    expect(noisy?.warnings?.join('\n')).toMatch(/first: "Server listening on stdio with token=\[REDACTED/);
    expect(json.stdout).not.toContain(token);
    expect(report.providers.find((row) => row.provider === 'quiet')?.warnings).toBeUndefined();
  });
});

describe('doctor with a stray stdout line that quotes a secret and the scrubber off', () => {
  it('redacts the line: a pattern credential and a value of the server env', async () => {
    const other = await tempDir();
    try {
      // a value no pattern knows, redacted because it is in the server env
      const apiKey = `k${fakeToken('').slice(0, 24)}`;
      await writeFile(join(other.path, 'noise.txt'), `boot: key ${apiKey}, github ${token}\n`);
      await writeJsonFile(other.path, 'toolplane.config.json', {
        mcpServers: {
          noisy: fixtureServer({ FIXTURE_STDOUT_NOISE_FILE: join(other.path, 'noise.txt'), API_KEY: apiKey }),
        },
        builtin: false,
        scrubber: { enabled: false },
      });
      const outcome = await runCli(['doctor'], { cwd: other.path });
      expect(outcome.code).toBe(0);
      expect(outcome.stdout).toMatch(/1 line on stdout that is not JSON-RPC \(first: "boot: key \[REDACTED/);
      expect(outcome.stdout).not.toContain(apiKey);
      expect(outcome.stdout).not.toContain(token);
    } finally {
      await other.cleanup();
    }
  });
});

describe('a server that fails to start with a credential in its stderr', () => {
  it('is reported by doctor, tools list and serve mcp with the credential redacted', async () => {
    const other = await tempDir();
    try {
      const script = `process.stderr.write('boom: token=${token}\\n'); process.exit(3)`;
      await writeJsonFile(other.path, 'toolplane.config.json', {
        mcpServers: { crashes: { command: process.execPath, args: ['-e', script] } },
        builtin: false,
        scrubber: { enabled: false },
      });
      const [doctor, list, serve] = await Promise.all([
        runCli(['doctor'], { cwd: other.path }),
        runCli(['tools', 'list'], { cwd: other.path }),
        runCli(['serve', 'mcp', '--stdio'], { cwd: other.path }),
      ]);
      expect(doctor.code).toBe(1);
      expect(doctor.stdout).toMatch(/^crashes\s+mcp\s+FAILED\s.*stderr: boom: token=\[REDACTED/m);
      // no provider started: tools list fails, naming the one that did not and why
      expect(list.code).toBe(1);
      expect(list.stderr).toMatch(
        /PROVIDER_UNAVAILABLE: no configured provider started: crashes .*boom: token=\[REDACTED/,
      );
      expect(serve.stderr).toMatch(/warning: provider crashes did not start: .*boom: token=\[REDACTED/);
      for (const outcome of [doctor, list, serve])
        expect(outcome.stdout + outcome.stderr).not.toContain(token);
    } finally {
      await other.cleanup();
    }
  });
});
