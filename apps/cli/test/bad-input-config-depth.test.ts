import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

// A config document nested deeper than a recursive reader's stack (JSON or YAML, flow or block
// style) is a config error in words, never a stack overflow.
let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => dir.cleanup());

describe('a config nested deeper than the stack', () => {
  it('refuses JSON nested deeper than the stack, as a config error', async () => {
    const depth = 200_000;
    await writeFile(join(dir.path, 'deep.json'), `{"policy":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    for (const command of [
      ['tools', 'list'],
      ['config', 'validate'],
    ]) {
      const { code, stderr, stdout } = await runCli(['--config', 'deep.json', ...command], { cwd: dir.path });
      expect(code, command.join(' ')).toBe(2);
      expect(`${stdout}${stderr}`, command.join(' ')).toContain('the document is nested too deeply to read');
      expect(stderr).not.toContain('Maximum call stack');
    }
  });

  it('says a YAML config nested deeper than the stack is nested too deeply, in words', async () => {
    const documents = {
      'deep-flow.yaml': `policy: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`,
      'deep-block.yaml': `policy:\n${Array.from({ length: 3_000 }, (_, index) => `${' '.repeat(index + 1)}a:`).join('\n')}\n`,
    };
    for (const [name, text] of Object.entries(documents)) {
      await writeFile(join(dir.path, name), text);
      const { code, stderr } = await runCli(['--config', name, 'tools', 'list'], { cwd: dir.path });
      expect(code, name).toBe(2);
      expect(stderr, name).toContain('the document is nested too deeply to read');
      expect(stderr, name).not.toContain('Maximum call stack');
    }
  });
});
