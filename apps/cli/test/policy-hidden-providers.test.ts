import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, runCli, tempDir, writeJsonFile } from './helpers.js';

// A profile that keeps only built-in tools (`coding`) hides a whole MCP server: `tools list`
// and `policy explain` say so, instead of looking as if the server offered nothing.

let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  await writeJsonFile(dir.path, 'coding.json', {
    mcpServers: { fixture: fixtureServer() },
    builtin: { workspace: '.', tools: ['read'] },
    policy: { profile: 'coding' },
  });
  await writeJsonFile(dir.path, 'full.json', {
    mcpServers: { fixture: fixtureServer() },
    builtin: { workspace: '.', tools: ['read'] },
  });
});
afterAll(() => dir.cleanup());

const run = (config: string, ...args: string[]) =>
  runCli(['--config', config, ...args], { cwd: dir.path, timeoutMs: 120_000 });

describe('a profile that hides every tool of a provider', () => {
  it('tools list lists the visible tools and notes on stderr that the profile hides the provider', async () => {
    const { code, stdout, stderr } = await run('coding.json', 'tools', 'list');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^read\s/m);
    expect(stdout).not.toContain('fixture__');
    expect(stderr).toMatch(/note: the policy hides all \d+ tool\(s\) of provider fixture \(profile/);
    expect(stderr).toContain('toolplane policy explain');
  });

  it('policy explain notes it for a tool of that provider, as text and in --json', async () => {
    const [text, json] = await Promise.all([
      run('coding.json', 'policy', 'explain', 'fixture__echo'),
      run('coding.json', 'policy', 'explain', 'fixture__echo', '--json'),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/note: the policy hides all \d+ tool\(s\) of provider fixture \(profile/);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as { visible: boolean; providerHidden?: { namespace: string } };
    expect(parsed.visible).toBe(false);
    expect(parsed.providerHidden?.namespace).toBe('fixture');
  });

  it('says nothing of the kind when the provider has visible tools', async () => {
    const [list, explain] = await Promise.all([
      run('full.json', 'tools', 'list'),
      run('full.json', 'policy', 'explain', 'fixture__echo', '--json'),
    ]);
    expect(list.code).toBe(0);
    expect(list.stderr).not.toContain('hides all');
    expect(JSON.parse(explain.stdout)).not.toHaveProperty('providerHidden');
  });
});
