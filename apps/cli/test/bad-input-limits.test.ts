import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, runCli, tempDir, writeJsonFile } from './helpers.js';

// A duration past what a Node timer holds is CONFIG_INVALID: Node fires such a timer after 1 ms
// (TimeoutOverflowWarning), so `limits.startTimeoutMs: 3000000000` would fail every server at once.
let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => dir.cleanup());

describe('a duration in limits past 2147483647 ms', () => {
  it('is CONFIG_INVALID at its field, for every command and in config validate', async () => {
    await writeJsonFile(dir.path, 'toolplane.config.json', {
      mcpServers: { notes: fixtureServer() },
      limits: { startTimeoutMs: 3_000_000_000, approvalTimeoutMs: 2_147_483_648 },
    });
    const [list, validate] = await Promise.all([
      runCli(['tools', 'list', '--json'], { cwd: dir.path }),
      runCli(['config', 'validate'], { cwd: dir.path }),
    ]);
    expect(list.code).toBe(2);
    expect((JSON.parse(list.stdout) as { error: { code: string } }).error.code).toBe('CONFIG_INVALID');
    expect(list.stderr).not.toContain('TimeoutOverflowWarning');
    expect(validate.code).toBe(2);
    expect(validate.stdout).toMatch(/limits\.startTimeoutMs {2}.*at most 2147483647 ms/);
    expect(validate.stdout).toMatch(/limits\.approvalTimeoutMs {2}.*at most 2147483647 ms/);
  });

  it('of exactly 2147483647 ms is valid', async () => {
    await writeJsonFile(dir.path, 'edge.json', {
      builtin: false,
      limits: { startTimeoutMs: 2_147_483_647, timeoutMs: 2_147_483_647 },
    });
    const outcome = await runCli(['--config', 'edge.json', 'config', 'validate'], { cwd: dir.path });
    expect(outcome.stdout).toContain('valid:');
    expect(outcome.code).toBe(0);
  });
});
