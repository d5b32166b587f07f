import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

// A key given twice in one object of --args is refused: JSON.parse would keep the last one
// without a word.
let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => dir.cleanup());

async function writeIn(name: string, text: string): Promise<string> {
  await writeFile(join(dir.path, name), text);
  return name;
}

describe('a key given twice in --args', () => {
  it('is INVALID_ARGUMENTS naming the key and where the second one is, from every source', async () => {
    const twice = '{"path":"a.txt",\n "nested":{"x":1},\n "path":"b.txt"}';
    const file = await writeIn('twice.json', twice);
    const [inline, fromFile, fromStdin] = await Promise.all([
      runCli(['tools', 'call', 'read', '--args', twice, '--json'], { cwd: dir.path }),
      runCli(['tools', 'call', 'read', '--args', `@${file}`], { cwd: dir.path }),
      runCli(['tools', 'call', 'read'], { cwd: dir.path, input: twice }),
    ]);
    for (const outcome of [inline, fromFile, fromStdin]) {
      expect(outcome.code).toBe(2);
      expect(outcome.stderr).toMatch(
        /INVALID_ARGUMENTS: .*the key "path" is given twice in one object \(line 3, column 2\)/,
      );
    }
    const error = (JSON.parse(inline.stdout) as { error: { code: string; hint: string } }).error;
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.hint).toMatch(/keep one/);
  });

  it('in a nested object is found too, while equal keys in different objects are fine', async () => {
    const [nested, apart] = await Promise.all([
      runCli(['tools', 'call', 'read', '--args', '{"a":{"b":1,"b":2}}'], { cwd: dir.path }),
      runCli(['tools', 'call', 'read', '--args', '{"path":"none.txt","x":{"path":1}}', '--json'], {
        cwd: dir.path,
      }),
    ]);
    expect(nested.code).toBe(2);
    expect(nested.stderr).toMatch(/the key "b" is given twice in one object \(line 1, column 13\)/);
    // read refuses the unknown field or the missing file, but not as a duplicate
    expect(apart.stderr).not.toMatch(/given twice/);
  });
});

describe('--args @ forms people bring from other tools', () => {
  it('@- reads stdin, as curl reads it', async () => {
    await writeIn('stdin.txt', 'read from stdin\n');
    const outcome = await runCli(['tools', 'call', 'read', '--args', '@-'], {
      cwd: dir.path,
      input: '{"path":"stdin.txt"}',
    });
    expect(outcome.stderr).not.toContain('error');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('read from stdin');
  });

  it('@~/file says that ~ is not expanded after @ and what to write', async () => {
    const outcome = await runCli(['tools', 'call', 'read', '--args', '@~/args.json'], { cwd: dir.path });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain('INVALID_ARGUMENTS: cannot read arguments file ~/args.json: ENOENT');
    expect(outcome.stderr).toMatch(/hint: .*~ is not expanded after @: write --args @"\$HOME\/args\.json"/);
  });

  it('asks for a file name after a bare --args @', async () => {
    const { code, stderr } = await runCli(['tools', 'call', 'read', '--args', '@'], { cwd: dir.path });
    expect(code).toBe(2);
    expect(stderr).toContain('toolplane: error: INVALID_ARGUMENTS: --args @ needs a file name after the @');
  });
});
