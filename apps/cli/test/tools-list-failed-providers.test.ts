import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, runCli, tempDir, writeJsonFile } from './helpers.js';

// `tools list` when configured providers fail to start: an empty list with exit code 0 would read
// as "the servers offer nothing", so no started provider is an error that names each failure.

const crashing = (message: string): Record<string, unknown> => ({
  command: process.execPath,
  args: ['-e', `process.stderr.write(${JSON.stringify(`${message}\n`)}); process.exit(3)`],
});

let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  await writeJsonFile(dir.path, 'none-started.json', {
    mcpServers: {
      crashes: crashing('boom: no database'),
      missing: { command: 'toolplane-test-no-such-command' },
    },
    builtin: false,
  });
  await writeJsonFile(dir.path, 'one-started.json', {
    mcpServers: { fixture: fixtureServer(), crashes: crashing('boom: no database') },
    builtin: false,
  });
});
afterAll(() => dir.cleanup());

describe('tools list with providers that do not start', () => {
  it('exits 1 with PROVIDER_UNAVAILABLE naming every provider that failed when none started', async () => {
    const [text, json] = await Promise.all([
      runCli(['--config', 'none-started.json', 'tools', 'list'], { cwd: dir.path, timeoutMs: 120_000 }),
      runCli(['--config', 'none-started.json', 'tools', 'list', '--json'], {
        cwd: dir.path,
        timeoutMs: 120_000,
      }),
    ]);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toMatch(/^toolplane: error: PROVIDER_UNAVAILABLE: no configured provider started: /);
    expect(text.stderr).toMatch(/crashes \(.*boom: no database/);
    expect(text.stderr).toMatch(/missing \(.*toolplane-test-no-such-command/);
    expect(text.stderr).toContain('toolplane doctor');
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.stdout) as { ok: boolean; error: { code: string; message: string } };
    expect(parsed.ok).toBe(false);
    expect(parsed.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(parsed.error.message).toMatch(/crashes \(.*; missing \(/);
  });

  it('lists the tools of the providers that started, exits 0 and warns about the one that failed', async () => {
    const { code, stdout, stderr } = await runCli(['--config', 'one-started.json', 'tools', 'list'], {
      cwd: dir.path,
      timeoutMs: 120_000,
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^fixture__echo\s/m);
    expect(stderr).toMatch(/warning: provider crashes did not start: .+\(run `toolplane doctor`\)/);
    expect(stderr).not.toContain('provider fixture did not start');
  });
});
