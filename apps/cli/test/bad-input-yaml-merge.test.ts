import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

// YAML merge keys (`<<: *defaults`) merge maps, as YAML 1.1 defines them; they are not unknown fields.
let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => dir.cleanup());

async function writeIn(name: string, text: string): Promise<string> {
  await writeFile(join(dir.path, name), text);
  return name;
}

describe('YAML merge keys (<<: *anchor)', () => {
  it('merge the anchored map into the one that names it, defined under an x- key', async () => {
    const config = await writeIn(
      'merge.yaml',
      [
        'x-quiet: &quiet',
        '  deny: [grep]',
        'builtin: { workspace: ., tools: [read, list, grep] }',
        'policy:',
        '  <<: *quiet',
        '  alsoAllow: []',
        'limits:',
        '  <<: [{ timeoutMs: 30000 }, { startTimeoutMs: 20000 }]',
        '',
      ].join('\n'),
    );
    const [validate, list] = await Promise.all([
      runCli(['--config', config, 'config', 'validate'], { cwd: dir.path }),
      runCli(['--config', config, 'tools', 'list', '--json'], { cwd: dir.path }),
    ]);
    expect(validate.stdout).toContain('valid:');
    expect(validate.code).toBe(0);
    expect(list.code).toBe(0);
    const names = (JSON.parse(list.stdout) as { name: string }[]).map((tool) => tool.name);
    expect(names).toContain('read');
    // the merged deny took effect
    expect(names).not.toContain('grep');
  });

  it('merge server entries, which are then checked as written out (a typo is found)', async () => {
    const config = await writeIn(
      'servers.yaml',
      [
        'mcpServers:',
        '  first: &server',
        `    command: ${JSON.stringify(process.execPath)}`,
        '    args: [server.mjs]',
        '  second:',
        '    <<: *server',
        '    envs: { A: "1" }',
        'builtin: false',
        '',
      ].join('\n'),
    );
    const outcome = await runCli(['--config', config, 'config', 'validate', '--json'], { cwd: dir.path });
    expect(outcome.code).toBe(2);
    const report = JSON.parse(outcome.stdout) as { issues: { path: string; line?: number }[] };
    expect(report.issues.map((issue) => issue.path)).toEqual(['mcpServers.second.envs']);
    expect(report.issues[0]?.line).toBe(7);
  });

  it('report a bad merged field at the line it is written on, in the anchored map', async () => {
    const config = await writeIn(
      'merged-field.yaml',
      ['x-limits: &limits', '  timeoutMs: -5', 'limits:', '  <<: *limits', ''].join('\n'),
    );
    const outcome = await runCli(['--config', config, 'config', 'validate'], { cwd: dir.path });
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toMatch(/merged-field\.yaml:2:3 {2}limits\.timeoutMs {2}/);
  });

  it('that merge something other than a map are CONFIG_INVALID at the key, saying what to write', async () => {
    const config = await writeIn('scalar.yaml', ['limits:', '  timeoutMs: 1000', '  <<: 5', ''].join('\n'));
    const [list, validate] = await Promise.all([
      runCli(['--config', config, 'tools', 'list', '--json'], { cwd: dir.path }),
      runCli(['--config', config, 'config', 'validate'], { cwd: dir.path }),
    ]);
    expect(list.code).toBe(2);
    expect((JSON.parse(list.stdout) as { error: { code: string } }).error.code).toBe('CONFIG_INVALID');
    expect(list.stderr).toMatch(/scalar\.yaml:3:3 .*"<<" merges a map/);
    expect(validate.code).toBe(2);
    expect(validate.stdout).toMatch(/scalar\.yaml:3:3 {2}limits\.<< {2}.*"<<" merges a map.*\*anchor/);
  });

  it('an x- key of a file that also has mcpServers does not make it a client file (its policy holds)', async () => {
    const config = await writeIn(
      'mine.yaml',
      ['x-note: anchors live here', 'mcpServers: {}', 'policy:', '  mode: yolo', ''].join('\n'),
    );
    const outcome = await runCli(['--config', config, 'config', 'validate'], { cwd: dir.path });
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toMatch(/mine\.yaml:4:\d+ {2}policy\.mode/);
  });
});
