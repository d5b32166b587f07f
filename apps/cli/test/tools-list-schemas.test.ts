import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, runCli, tempDir, writeJsonFile } from './helpers.js';

// `tools list --json` carries what a model is given for each tool: its input schema, and its
// output schema when the tool declares one.

interface Row {
  name: string;
  inputSchema?: { type?: string; properties?: Record<string, unknown>; required?: string[] };
  outputSchema?: { properties?: Record<string, unknown> };
}

let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    mcpServers: { fixture: fixtureServer() },
    builtin: { workspace: '.', tools: ['read'] },
  });
});
afterAll(() => dir.cleanup());

describe('tools list --json', () => {
  it("includes every tool's input schema, and the output schema only where the tool has one", async () => {
    const { code, stdout } = await runCli(['tools', 'list', '--json'], { cwd: dir.path, timeoutMs: 120_000 });
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as Row[];
    const byName = new Map(rows.map((row) => [row.name, row]));
    for (const row of rows) expect(row.inputSchema?.type, row.name).toBe('object');
    expect(byName.get('fixture__echo')?.inputSchema?.required).toEqual(['message']);
    expect(Object.keys(byName.get('fixture__add')?.inputSchema?.properties ?? {}).sort()).toEqual(['a', 'b']);
    expect(Object.keys(byName.get('fixture__add')?.outputSchema?.properties ?? {})).toEqual(['sum']);
    expect(byName.get('fixture__echo')).not.toHaveProperty('outputSchema');
    expect(byName.get('read')?.inputSchema?.properties).toHaveProperty('path');
  });
});
