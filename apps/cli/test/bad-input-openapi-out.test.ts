import { lstat, mkdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

// Where `openapi import --out` may write: a file in an existing directory, through symbolic links
// (which are kept); anything else is INVALID_ARGUMENTS saying why.
const STACK_LINE = /^\s+at .+\(?.*:\d+:\d+\)?$/m;

let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => dir.cleanup());

const petstore = fileURLToPath(
  new URL('../node_modules/@readme/oas-examples/3.0/json/petstore.json', import.meta.url),
);

describe('openapi import --out', () => {
  it('says the directory of --out does not exist, or that --out is a directory', async () => {
    await mkdir(join(dir.path, 'out-dir.json'), { recursive: true });
    const cases = [
      [join(dir.path, 'missing', 'tools.json'), 'its directory does not exist'],
      ['out-dir.json', 'it is a directory'],
    ] as const;
    for (const [out, problem] of cases) {
      const { code, stderr } = await runCli(['openapi', 'import', petstore, '--out', out], { cwd: dir.path });
      expect(code, out).toBe(2);
      expect(stderr, out).toContain(`toolplane: error: INVALID_ARGUMENTS: cannot write ${out}: ${problem}`);
      expect(stderr, out).toContain('hint: give --out a file path in an existing, writable directory');
      expect(stderr).not.toMatch(STACK_LINE);
    }
  });
});

describe('openapi import --out through a symbolic link', () => {
  it('writes the file the link points to and keeps the link', async () => {
    const sub = join(dir.path, 'out-links');
    await mkdir(join(sub, 'real'), { recursive: true });
    // two hops, the last one dangling (its target does not exist yet)
    await symlink('real/store.tools.yaml', join(sub, 'middle.yaml'));
    await symlink('middle.yaml', join(sub, 'store.yaml'));
    const { code, stderr } = await runCli(
      ['openapi', 'import', petstore, '--tag', 'store', '--namespace', 'store', '--out', 'store.yaml'],
      { cwd: sub },
    );
    expect(stderr).not.toContain('error');
    expect(code).toBe(0);
    expect((await lstat(join(sub, 'store.yaml'))).isSymbolicLink()).toBe(true);
    expect((await lstat(join(sub, 'middle.yaml'))).isSymbolicLink()).toBe(true);
    const written = await readFile(join(sub, 'real', 'store.tools.yaml'), 'utf8');
    expect(written).toMatch(/^ {2}getInventory:/m);
  });

  it('says a link into a missing directory, or a link loop, cannot be written', async () => {
    const sub = join(dir.path, 'out-bad-links');
    await mkdir(sub, { recursive: true });
    await symlink('missing/x.json', join(sub, 'nowhere.json'));
    await symlink('loop-b.json', join(sub, 'loop-a.json'));
    await symlink('loop-a.json', join(sub, 'loop-b.json'));
    const cases = [
      ['nowhere.json', 'its directory does not exist'],
      ['loop-a.json', 'it is a symbolic link that loops'],
    ] as const;
    for (const [out, problem] of cases) {
      const { code, stderr } = await runCli(['openapi', 'import', petstore, '--out', out], { cwd: sub });
      expect(code, out).toBe(2);
      expect(stderr, out).toContain(`toolplane: error: INVALID_ARGUMENTS: cannot write ${out}: ${problem}`);
    }
    expect((await lstat(join(sub, 'nowhere.json'))).isSymbolicLink()).toBe(true);
  });
});
