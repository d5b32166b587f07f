// Files that start with a byte order mark: ripgrep decodes UTF-16 (and drops a UTF-8 mark)
// before searching, and the Node engine does the same, rather than taking UTF-16's NUL bytes for
// binary or keeping a UTF-8 mark in the first line (where `^word` would miss it). Every answer
// here is compared with ripgrep's.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GrepEngines, grepEngines } from '../helpers/grep-engines.js';
import { context, makeTempDir } from '../helpers/index.js';

const utf16be = (text: string): Buffer => Buffer.from(text, 'utf16le').swap16();

describe('grep and files with a byte order mark', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let engines: GrepEngines;
  const ctx = context('bom-grep');

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-grep-bom-'));
    const text = 'word first\r\nsecond line\r\nthird word 日本語\r\nfourth\r\nword again\r\n';
    await writeFile(join(dir, 'le.txt'), Buffer.from(`\ufeff${text}`, 'utf16le'));
    await writeFile(join(dir, 'be.txt'), utf16be(`\ufeff${text}`));
    await writeFile(join(dir, 'utf8.txt'), `\ufeff${text}`);
    // An unpaired surrogate and an odd last byte.
    await writeFile(
      join(dir, 'broken.txt'),
      Buffer.concat([Buffer.from('\ufeffword \ud800 here\nword end\n', 'utf16le'), Buffer.from([0x41])]),
    );
    // Larger than one 4 MiB read of the search.
    const lines = Array.from({ length: 160_000 }, (_, i) => `line ${i} ${i % 40_000 === 7 ? 'word' : 'pad'}`);
    await writeFile(join(dir, 'large.txt'), Buffer.from(`\ufeff${lines.join('\n')}\n`, 'utf16le'));
    engines = grepEngines(dir, ctx);
  });
  afterAll(async () => {
    await engines.close();
    await cleanup();
  });

  const both = (args: Record<string, unknown>) => engines.both(args);

  it('finds words in UTF-16 (both byte orders) and after a UTF-8 mark, as ripgrep does', async () => {
    const text = await both({ pattern: '^word', output_mode: 'content', head_limit: 1000 });
    for (const name of ['be.txt', 'le.txt', 'utf8.txt']) {
      expect(text).toContain(`${name}\n1:word first\n--\n5:word again\n`);
    }
    expect(await both({ pattern: '日本', output_mode: 'content', context: 1, glob: 'le.txt' })).toContain(
      '2-second line\n3:third word 日本語\n4-fourth\n',
    );
  });

  it('agrees in count and files modes, on broken UTF-16 and on a file larger than one read', async () => {
    const counted = await both({ pattern: 'word', output_mode: 'count' });
    expect(counted).toContain('le.txt:3');
    expect(counted).toContain('large.txt:4');
    expect(counted).toContain('broken.txt:2');
    const files = await both({ pattern: 'word', output_mode: 'files_with_matches' });
    expect(files.split('\n').slice(0, 5)).toEqual([
      'be.txt',
      'broken.txt',
      'large.txt',
      'le.txt',
      'utf8.txt',
    ]);
    const broken = await both({ pattern: 'here', output_mode: 'content', glob: 'broken.txt' });
    expect(broken).toContain('1:word \ufffd here');
    expect(await both({ pattern: 'line 120007 ', output_mode: 'content' })).toContain(
      '120008:line 120007 word',
    );
  });
});

// The Node engine decodes a file with a mark as it reads it, whatever the size: a UTF-16 file
// over 64 MiB searched raw would look binary (its NUL bytes), with no match where ripgrep finds
// some.
describe('grep and large files with a byte order mark', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let engines: GrepEngines;
  const ctx = context('bom-grep-large');

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-grep-bom-large-'));
    // 72 MiB of UTF-16 with words at its start, middle and end; a few characters outside the
    // Basic Multilingual Plane (surrogate pairs) that reads of the file split.
    const lines = Array.from({ length: 1_200_000 }, (_, i) =>
      i % 400_000 === 5 || i === 1_199_999 ? `line ${i} word 😀 end` : `line ${i} pad 😀 ${'x'.repeat(9)}`,
    );
    await writeFile(join(dir, 'big-le.txt'), Buffer.from(`\ufeff${lines.join('\n')}\n`, 'utf16le'));
    // A NUL (U+0000) a few decoded megabytes in: the search stops where ripgrep's reads would,
    // which the engine works out by reading the text again from its start.
    const withNul = Array.from({ length: 200_000 }, (_, i) =>
      i === 150_000 ? 'nul \u0000 here' : i % 50_000 === 3 ? `row ${i} word` : `row ${i} filler`,
    );
    await writeFile(join(dir, 'nul-be.txt'), utf16be(`\ufeff${withNul.join('\n')}\n`));
    engines = grepEngines(dir, ctx);
  });
  afterAll(async () => {
    await engines.close();
    await cleanup();
  });

  const both = (args: Record<string, unknown>) => engines.both(args);

  it('finds what ripgrep finds in a UTF-16 file over 64 MiB', async () => {
    const content = await both({ pattern: 'word', output_mode: 'content', glob: 'big-le.txt' });
    expect(content).toContain('1200000:line 1199999 word 😀 end');
    expect(content).toContain('(4 matching lines in 1 file)');
    expect(await both({ pattern: '^line 8\\d+ word', output_mode: 'count', glob: 'big-le.txt' })).toContain(
      'big-le.txt:1',
    );
  });

  it('cuts a UTF-16 file at a NUL where ripgrep does, in every mode', async () => {
    const content = await both({ pattern: 'word', output_mode: 'content', glob: 'nul-be.txt' });
    expect(content).toContain('4:row 3 word');
    expect(content).not.toContain('row 150003 word');
    await both({ pattern: 'row 1500', output_mode: 'files_with_matches', glob: 'nul-be.txt' });
    await both({ pattern: 'word', output_mode: 'count', glob: 'nul-be.txt' });
  });
});
