import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeJsonFile } from './helpers.js';

// Huge counts: a server that lists 150,000 tools. Spreading that many rows as arguments
// (Math.max(...rows) for a column's width) would overflow the stack, so the table must be built
// without it, as --json is.
const MANY_TOOLS = fileURLToPath(new URL('./fixtures/many-tools-server.mjs', import.meta.url));
let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    mcpServers: { many: { command: process.execPath, args: [MANY_TOOLS], env: { TOOL_COUNT: '150000' } } },
    builtin: false,
  });
});
afterAll(() => dir.cleanup());

describe('tools list with a server that lists 150,000 tools', () => {
  it('prints the whole table', async () => {
    const outcome = await runCli(['tools', 'list'], { cwd: dir.path, timeoutMs: 170_000 });
    expect(outcome.stderr).not.toMatch(/INTERNAL|Maximum call stack/);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/^many__t149999\s+many\s+mcp\s/m);
    expect(outcome.stdout).toMatch(/^150002 tool\(s\)$/m);
  });
});
