import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, runCli, tempDir, writeJsonFile } from './helpers.js';

// A policy entry that names no tool (the server renamed it, or the name is misspelt) changes
// nothing: `config validate` and `tools list` warn about each, with the name it may have meant.

interface Validation {
  valid: boolean;
  issues: unknown[];
  warnings: { path: string; line?: number; message: string }[];
}

let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  await writeJsonFile(dir.path, 'stale.json', {
    mcpServers: { fixture: fixtureServer() },
    builtin: { workspace: '.', tools: ['read'] },
    policy: {
      allow: ['fixture__*', 'read', 'group:fs'],
      deny: ['fixture__ecoh'],
      autoAllow: ['fixtrue__*'],
      alwaysAsk: ['zzqq_nothing_like_it', 'mcp__fixture__*', 'fixture.add'],
    },
  });
  await writeJsonFile(dir.path, 'matching.json', {
    mcpServers: { fixture: fixtureServer() },
    builtin: { workspace: '.', tools: ['read'] },
    policy: { deny: ['fixture__leak'], autoAllow: ['fixture__e*'], alwaysAsk: ['read'] },
  });
  await writeJsonFile(dir.path, 'failed.json', {
    mcpServers: {
      fixture: fixtureServer(),
      broken: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
    },
    builtin: false,
    policy: { deny: ['broken__drop_table', 'fixture__ecoh'] },
  });
});
afterAll(() => dir.cleanup());

const run = (config: string, ...args: string[]) =>
  runCli(['--config', config, ...args], { cwd: dir.path, timeoutMs: 120_000 });

describe('policy entries that match no listed tool', () => {
  it('config validate stays valid and warns about each allow, deny, autoAllow and alwaysAsk entry, with a did you mean', async () => {
    const [json, text] = await Promise.all([
      run('stale.json', 'config', 'validate', '--json'),
      run('stale.json', 'config', 'validate'),
    ]);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as Validation;
    expect(parsed.valid).toBe(true);
    const byPath = new Map(parsed.warnings.map((warning) => [warning.path, warning.message]));
    expect([...byPath.keys()].sort()).toEqual([
      'policy.alwaysAsk[0]',
      'policy.alwaysAsk[1]',
      'policy.alwaysAsk[2]',
      'policy.autoAllow[0]',
      'policy.deny[0]',
    ]);
    // names as other clients form them get the name as toolplane forms it
    expect(byPath.get('policy.alwaysAsk[1]')).toContain('did you mean fixture__*?');
    expect(byPath.get('policy.alwaysAsk[2]')).toContain('did you mean fixture__add?');
    expect(byPath.get('policy.deny[0]')).toContain('"fixture__ecoh" matches no listed tool');
    expect(byPath.get('policy.deny[0]')).toContain('did you mean fixture__echo?');
    expect(byPath.get('policy.autoAllow[0]')).toContain('did you mean fixture__*?');
    expect(byPath.get('policy.alwaysAsk[0]')).toContain('toolplane tools list');
    expect(parsed.warnings.find((warning) => warning.path === 'policy.deny[0]')?.line).toBeGreaterThan(1);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^warning: stale\.json:\d+:\d+ {2}policy\.deny\[0\] {2}.*did you mean fixture__echo\?$/m,
    );
    expect(text.stdout).toMatch(/^valid: /m);
  });

  it('tools list warns about them on stderr and still lists the tools', async () => {
    const { code, stdout, stderr } = await run('stale.json', 'tools', 'list');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^fixture__echo\s/m);
    expect(stderr).toMatch(
      /warning: policy\.deny\[0\]: "fixture__ecoh" matches no listed tool.*did you mean fixture__echo\?/,
    );
    expect(stderr).toContain('policy.autoAllow[0]');
    expect(stderr).toContain('policy.alwaysAsk[0]');
  });

  it('warns about nothing when every entry matches a tool', async () => {
    const [validate, list] = await Promise.all([
      run('matching.json', 'config', 'validate', '--json'),
      run('matching.json', 'tools', 'list'),
    ]);
    expect(validate.code).toBe(0);
    expect((JSON.parse(validate.stdout) as Validation).warnings).toEqual([]);
    expect(list.code).toBe(0);
    expect(list.stderr).not.toContain('matches no listed tool');
  });

  it('does not judge entries for a provider that did not start, and says it could not check them', async () => {
    const { code, stdout } = await run('failed.json', 'config', 'validate', '--json');
    expect(code).toBe(0);
    const { warnings } = JSON.parse(stdout) as Validation;
    expect(warnings.map((warning) => warning.path).sort()).toEqual(['mcpServers.broken', 'policy.deny[1]']);
    expect(warnings.find((warning) => warning.path === 'mcpServers.broken')?.message).toContain(
      'provider broken did not start',
    );
  });
});
