import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

// A regular file given as --args @file or --config is size-checked before it is read: a sparse
// file of 1 GiB (or a device that never ends) is refused at once, without reading it into memory.
let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => dir.cleanup());

describe('an --args or --config file past its size limit', () => {
  it('refuses an --args file over 16 MiB, a device that never ends included, without reading it all', async () => {
    const sparse = join(dir.path, 'huge-args.json');
    await writeFile(sparse, '');
    await truncate(sparse, 1024 * 1024 * 1024);
    for (const file of ['/dev/zero', sparse]) {
      const { code, stderr } = await runCli(['tools', 'call', 'read', '--args', `@${file}`], {
        cwd: dir.path,
      });
      expect(code, file).toBe(2);
      expect(stderr, file).toContain(
        `toolplane: error: INVALID_ARGUMENTS: arguments file ${file} is larger than 16 MiB`,
      );
      expect(stderr, file).toContain('hint: pass a smaller JSON object');
      expect(stderr, file).not.toContain('Invalid string length');
    }
  });

  it('refuses a config file over 64 MiB before reading it', async () => {
    const sparse = join(dir.path, 'huge.config.json');
    await writeFile(sparse, '');
    await truncate(sparse, 1024 * 1024 * 1024);
    for (const command of [
      ['tools', 'list'],
      ['config', 'validate'],
    ]) {
      const { code, stdout, stderr } = await runCli(['--config', 'huge.config.json', ...command], {
        cwd: dir.path,
      });
      expect(code, command.join(' ')).toBe(2);
      expect(stderr, command.join(' ')).toMatch(
        /toolplane: error: CONFIG_INVALID: config .*huge\.config\.json is 1024 MiB; a config file may be at most 64 MiB/,
      );
      expect(`${stdout}${stderr}`).not.toContain('Invalid string length');
    }
  });
});
