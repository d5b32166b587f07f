import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('the README example', () => {
  it('spawns and steers a researcher against the scripted model and prints its report', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=@toolplane/source', '--import', 'tsx', 'scripts/readme-example.ts'],
      { cwd: root, timeout: 60_000, env: { PATH: process.env.PATH ?? '' } },
    );
    const lines = stdout.split('\n');
    expect(lines.slice(0, 4).map((line) => line.replace(/sub_\S+/, 'ID'))).toEqual([
      'main: subagents__spawn',
      'main: subagents__steer',
      'main: ID cancelled',
      'main: ID completed',
    ]);
    expect(stdout).toContain('B is 2x faster.');
    expect(stdout).toContain('runs: 3');
  });
});
