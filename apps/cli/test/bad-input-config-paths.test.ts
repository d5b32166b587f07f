import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

// A --config that names no file (a directory, a link loop, a dangling link, nothing at all), and a
// built-in workspace that is a file: each is CONFIG_INVALID or INVALID_ARGUMENTS saying what it is.
const STACK_LINE = /^\s+at .+\(?.*:\d+:\d+\)?$/m;

let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => dir.cleanup());

describe('config paths that are not files', () => {
  it('says a directory given as the config is a directory', async () => {
    await mkdir(join(dir.path, 'conf.d'), { recursive: true });
    const { code, stderr } = await runCli(['--config', 'conf.d', 'tools', 'list'], { cwd: dir.path });
    expect(code).toBe(2);
    expect(stderr).toMatch(/toolplane: error: CONFIG_INVALID: config .*conf\.d is a directory/);
    expect(stderr).not.toMatch(STACK_LINE);
  });

  it('says a symbolic link loop or a dangling link is one, instead of "does not exist"', async () => {
    await symlink('loop-b.json', join(dir.path, 'loop-a.json'));
    await symlink('loop-a.json', join(dir.path, 'loop-b.json'));
    await symlink('nowhere.json', join(dir.path, 'dangling.json'));
    const cases = [
      ['loop-a.json', 'is a symbolic link that loops'],
      ['dangling.json', 'is a symbolic link to nowhere.json, which does not exist'],
    ] as const;
    for (const [file, problem] of cases) {
      const { code, stderr } = await runCli(['--config', file, 'tools', 'list'], { cwd: dir.path });
      expect(code, file).toBe(2);
      expect(stderr, file).toContain(`toolplane: error: CONFIG_INVALID: config file ${file} ${problem}`);
    }
  });

  it('asks for a file name when --config is empty, instead of calling the directory a config', async () => {
    const { code, stderr } = await runCli(['--config', '', 'tools', 'list'], { cwd: dir.path });
    expect(code).toBe(2);
    expect(stderr).toContain('toolplane: error: INVALID_ARGUMENTS: --config needs a file name');
  });
});

describe('a file as the built-in workspace', () => {
  it('is a config error for calls and for config validate, not a provider that fails every call', async () => {
    const sub = join(dir.path, 'file-workspace');
    await mkdir(sub, { recursive: true });
    await writeFile(join(sub, 'notes.txt'), 'text\n');
    await writeFile(
      join(sub, 'toolplane.config.json'),
      JSON.stringify({ builtin: { workspace: 'notes.txt', tools: ['read', 'list'] } }),
    );
    const call = await runCli(['tools', 'call', 'read', '--args', '{"path":"notes.txt"}'], { cwd: sub });
    expect(call.code).toBe(2);
    expect(call.stderr).toContain(
      'toolplane: error: CONFIG_INVALID: builtin.workspace notes.txt is a file, not a directory',
    );
    const validate = await runCli(['config', 'validate'], { cwd: sub });
    expect(validate.code).toBe(2);
    expect(validate.stdout).toMatch(/builtin\.workspace {2}notes\.txt is a file, not a directory/);
  });
});
