import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBuiltinProvider } from '../src/index.js';
import { MAX_COMMAND_BYTES } from '../src/tools/bash.js';
import { MAX_EDITS } from '../src/tools/edit.js';
import { ripgrep } from './helpers/grep-engines.js';
import { context, failure, okText, useWorkspace } from './helpers/index.js';

// Bad input by size and by name: counts that made work quadratic or held the event loop, inputs
// the kernel refuses, and names of Object.prototype's members taken for table entries.

const ws = useWorkspace();

describe('edit of a large file', () => {
  it('names the same text with other whitespace for a long old_string without comparing every window', async () => {
    // Joining and comparing each window of 5,000 lines would be 100,000 x 5,000 lines (minutes).
    const lines = Array.from({ length: 100_000 }, (_, i) => `  const value${i} = compute(${i});`);
    await writeFile(join(ws.dir, 'big.ts'), `${lines.join('\n')}\n`);
    okText(await ws.provider.execute('read', { path: 'big.ts', limit: 1 }, context()));
    const respaced = lines.slice(70_000, 75_000).map((line) => line.replace(' = ', '   =   ').trim());
    const result = await ws.provider.execute(
      'edit',
      { path: 'big.ts', old_string: respaced.join('\n'), new_string: 'x' },
      context(),
    );
    expect(failure(result)).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      message: expect.stringContaining(
        'the same text exists with different whitespace or indentation at line 70001;',
      ),
    });
    const near = await ws.provider.execute(
      'edit',
      { path: 'big.ts', old_string: 'const valu99999 = compute(99999);\nnot there', new_string: 'x' },
      context(),
    );
    expect(failure(near).message).toMatch(
      /closest lines are:\n {2}line 100000: const value99999 = compute\(99999\);/,
    );
  });

  it(`refuses more than ${MAX_EDITS} edits in one call, changing nothing`, async () => {
    await writeFile(join(ws.dir, 'a.txt'), 'hi\n');
    okText(await ws.provider.execute('read', { path: 'a.txt' }, context()));
    const edits = Array.from({ length: MAX_EDITS + 1 }, () => ({ old_string: 'hi', new_string: 'hi' }));
    const result = await ws.provider.execute('edit', { path: 'a.txt', edits }, context());
    expect(failure(result).code).toBe('INVALID_ARGUMENTS');
    expect(failure(result).message).toContain(`at most ${MAX_EDITS} edits in one call`);
    expect(await readFile(join(ws.dir, 'a.txt'), 'utf8')).toBe('hi\n');
  });

  it('applies the most edits a call takes to a 10 MB file while another call is answered', async () => {
    // In one synchronous stretch they take seconds, so they yield between edits. How long the
    // event loop is held is a timing, measured by hand (docs/tools.md), not asserted here.
    const row = 'the quick brown fox jumps over the lazy dog 0123456789\n';
    await writeFile(join(ws.dir, 'large.txt'), `${row.repeat(180_000)}S0X\n`);
    await writeFile(join(ws.dir, 'small.txt'), 'small\n');
    okText(await ws.provider.execute('read', { path: 'large.txt', limit: 1 }, context()));
    const edits = Array.from({ length: MAX_EDITS }, (_, i) => ({
      old_string: `S${i}X`,
      new_string: `S${i + 1}X`,
    }));
    const order: string[] = [];
    const editing = ws.provider.execute('edit', { path: 'large.txt', edits }, context()).then((result) => {
      order.push('edit');
      return result;
    });
    // Started once the edit is under way: it has read the file and begun its edits.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const reading = ws.provider.execute('read', { path: 'small.txt' }, context('other')).then((result) => {
      order.push('read');
      return result;
    });
    const [edited, read] = await Promise.all([editing, reading]);
    expect(okText(edited)).toContain(`${MAX_EDITS} replacements in ${MAX_EDITS} edits`);
    expect(okText(read)).toContain('small');
    expect(order).toEqual(['read', 'edit']);
    expect((await readFile(join(ws.dir, 'large.txt'), 'utf8')).endsWith(`S${MAX_EDITS}X\n`)).toBe(true);
  });
});

describe('bash commands the kernel refuses', () => {
  it(`refuses a command over ${MAX_COMMAND_BYTES} bytes with a way out, and runs one at the limit`, async () => {
    const tooLong = await ws.provider.execute(
      'bash',
      { command: `echo ${'a'.repeat(MAX_COMMAND_BYTES)}` },
      context(),
    );
    expect(failure(tooLong).code).toBe('INVALID_ARGUMENTS');
    expect(failure(tooLong).message).toContain('write the script to a file with write, then run that file');
    const head = 'printf fits #';
    const atLimit = await ws.provider.execute(
      'bash',
      { command: `${head}${'a'.repeat(MAX_COMMAND_BYTES - head.length)}` },
      context(),
    );
    expect(okText(atLimit)).toContain('fits');
  });
});

describe('grep filters by size and by name', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'refuses type %s as an unknown type',
    async (type) => {
      await writeFile(join(ws.dir, 'a.txt'), 'needle\n');
      const result = await ws.provider.execute('grep', { pattern: 'needle', type }, context());
      expect(failure(result).code).toBe('INVALID_ARGUMENTS');
      expect(failure(result).message).toContain(`unknown type "${type}"; use one of c, cpp`);
    },
  );

  it('refuses over 100 globs, and a glob over 10000 characters', async () => {
    const many = await ws.provider.execute(
      'grep',
      { pattern: 'x', glob: Array.from({ length: 101 }, (_, i) => `*.x${i}`) },
      context(),
    );
    expect(failure(many).message).toContain('101 glob filters; grep takes at most 100');
    const long = await ws.provider.execute(
      'grep',
      { pattern: 'x', glob: `*${'a'.repeat(10_000)}` },
      context(),
    );
    expect(failure(long).message).toContain('a glob is 10001 characters long, over the 10000 limit');
  });

  it.skipIf(!ripgrep)(
    'says the filters are too long for a command line instead of "spawn E2BIG"',
    async () => {
      await writeFile(join(ws.dir, 'a.txt'), 'needle\n');
      // 100 globs of 30 KB each: 3 MB of arguments, over Linux's 2 MiB.
      const glob = Array.from({ length: 100 }, (_, i) => `${i}${'€'.repeat(9_990)}`);
      const rg = createBuiltinProvider({ workspace: ws.dir, tools: ['grep'] });
      try {
        const result = await rg.execute('grep', { pattern: 'needle', glob }, context());
        expect(failure(result).code).toBe('INVALID_ARGUMENTS');
        expect(failure(result).message).toContain('too long to pass to ripgrep');
      } finally {
        await rg.close?.();
      }
    },
  );
});
