import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeJsonFile } from './helpers.js';

// A stdio MCP server that hangs before it answers initialize (it waits for a database, say) is
// reported with the MCP provider's error, which quotes the server's stderr, not only "did not
// start within 60000 ms". The MCP servers get limits.startTimeoutMs as their own startup timeout,
// so their error comes first; the pipeline's start timeout comes later, as a backstop.
let dir: { path: string; cleanup(): Promise<void> };
const hanging = "console.error('waiting for the database at db.internal:5432'); setInterval(() => {}, 1000);";
beforeAll(async () => {
  dir = await tempDir();
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    mcpServers: { hangs: { command: process.execPath, args: ['-e', hanging] } },
    builtin: false,
    limits: { startTimeoutMs: 3000 },
  });
});
afterAll(() => dir.cleanup());

describe('a stdio server that hangs before initialize', () => {
  it('is reported with its stderr by doctor and tools list', async () => {
    const [doctor, json, list] = await Promise.all([
      runCli(['doctor'], { cwd: dir.path }),
      runCli(['doctor', '--json'], { cwd: dir.path }),
      runCli(['tools', 'list'], { cwd: dir.path }),
    ]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      /^hangs\s+mcp\s+FAILED\s.*did not initialize within 3000 ms.*stderr: waiting for the database at db\.internal:5432/m,
    );
    const report = JSON.parse(json.stdout) as { providers: { provider: string; detail: string }[] };
    expect(report.providers.find((row) => row.provider === 'hangs')?.detail).toContain(
      'stderr: waiting for the database',
    );
    // its only provider did not start: tools list fails, with the server's stderr in the reason
    expect(list.code).toBe(1);
    expect(list.stderr).toMatch(
      /PROVIDER_UNAVAILABLE: no configured provider started: hangs .*stderr: waiting for the database/,
    );
  });
});
