import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inCI, makeTempDir } from '../helpers/index.js';
import { createFileSearchState, searchFile } from '../../src/grep/file-search.js';
import { findRipgrep } from '../../src/grep/find-ripgrep.js';
import { LINE_STARTS_MIN_BYTES } from '../../src/grep/line-starts.js';
import { compilePattern } from '../../src/grep/pattern.js';
import type { FileHits } from '../../src/grep/results.js';
import { searchWithRipgrep } from '../../src/grep/ripgrep.js';
import type { GrepMode, SearchRequest } from '../../src/grep/search-request.js';

const ripgrep = findRipgrep();
if (!ripgrep && inCI) throw new Error('ripgrep (rg) must be on PATH in CI: apt-get install ripgrep');

const SMALL_CHUNK = 64 * 1024;
let dir: string;
let cleanup: () => Promise<void>;

/** Rows of varied length; every 7th holds the needle, and one row is longer than four chunks. */
function rows(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    if (i === 5000) return `${'long '.repeat(60_000)}NEEDLE in a long row`;
    return i % 7 === 3 ? `row ${i} NEEDLE ${'-'.repeat(i % 41)}` : `row ${i} ${'.'.repeat(i % 97)}`;
  });
}

/**
 * A file with a NUL byte somewhere past the first 64 KiB, matches on about one row in nine,
 * rows of varied length and, in every third case, a row longer than ripgrep's buffer before it.
 */
async function writeNulCase(trial: number): Promise<{ name: string; context: number }> {
  let seed = 1000 + trial;
  const next = (below: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % below;
  };
  const lines = Array.from(
    { length: 3000 },
    (_, i) => `${next(9) === 0 ? `hit ${i} NEEDLE` : `row ${i}`} ${'a'.repeat(next(300))}`,
  );
  if (trial % 3 === 0) lines[200] = 'L'.repeat(70_000 + next(130_000));
  const text = `${lines.join('\n')}\n`;
  const nul = 70_000 + next(text.length - 70_010);
  const name = `nul-${trial}.log`;
  await writeFile(join(dir, name), Buffer.from(`${text.slice(0, nul)}\0${text.slice(nul)}`));
  return { name, context: [0, 1, 2, 3, 7, 20][trial % 6] as number };
}

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('tp-file-search-'));
  const text = rows(40_000).join('\n');
  await writeFile(join(dir, 'chunks.log'), `${text}\n`);
  await writeFile(join(dir, 'no-newline.log'), text);
  // NUL bytes well past the first chunks: what comes before their 64 KiB block is searched.
  await writeFile(
    join(dir, 'late-nul.log'),
    Buffer.from(`${text.slice(0, 900_000)}\0\0${text.slice(900_000)}\n`),
  );
  // Large enough for byte offsets (the line index takes them from files this size).
  const big = Array.from({ length: 400_000 }, (_, i) =>
    i % 50_000 === 49_999 ? `hit ${i} NEEDLE` : `row ${i} ok, padded to grow the file past 8 MiB`,
  );
  await writeFile(join(dir, 'big.log'), `${big.join('\n')}\n`);
  await writeFile(join(dir, 'wide.log'), `short\n${'x'.repeat(300 * 1024)} NEEDLE\nshort NEEDLE\n`);
});
afterAll(() => cleanup());

function requestFor(name: string, mode: GrepMode, before = 0, after = 0): SearchRequest {
  return {
    root: join(dir, name),
    rootIsFile: true,
    pattern: compilePattern('NEEDLE', false),
    mode,
    globs: [],
    before,
    after,
    respectGitignore: true,
    skipDirectories: [],
    hardMatchCap: 1_000_000,
  };
}

async function withNode(
  name: string,
  request: SearchRequest,
  chunkBytes?: number,
): Promise<FileHits | undefined> {
  const state = createFileSearchState(request.pattern, chunkBytes === undefined ? {} : { chunkBytes });
  return searchFile(name, request.root, request, state, Buffer.from('NEEDLE'));
}

async function withRipgrep(request: SearchRequest): Promise<FileHits | undefined> {
  return (await searchWithRipgrep(ripgrep as string, request)).files[0];
}

/** The hits without byte offsets (the Node engine gives them for large files only). */
const withoutOffsets = (hits: FileHits | undefined) =>
  hits && { ...hits, lines: hits.lines.map(({ offset: _, ...line }) => line) };

describe.skipIf(!ripgrep)('searchFile: the Node engine, chunk by chunk, as ripgrep', () => {
  it.each([
    ['chunks.log', 'content', 3, 3],
    ['chunks.log', 'content', 5, 0],
    ['chunks.log', 'content', 0, 4],
    ['chunks.log', 'count', 0, 0],
    ['chunks.log', 'files_with_matches', 0, 0],
    ['no-newline.log', 'content', 2, 2],
    ['late-nul.log', 'content', 2, 2],
    ['late-nul.log', 'count', 0, 0],
  ] as const)(
    '%s in %s mode, context %i before and %i after, in 64 KiB chunks',
    async (name, mode, before, after) => {
      const request = requestFor(name, mode, before, after);
      const expected = await withRipgrep(request);
      const found = await withNode(name, request, SMALL_CHUNK);
      if (name === 'late-nul.log' && mode === 'count') expect(expected).toBeUndefined();
      else expect(expected?.path).toBe(name);
      // ripgrep's files mode does not count; the Node engine stops at the first match.
      const comparable = (hits: FileHits | undefined) =>
        mode === 'files_with_matches' ? hits?.path : withoutOffsets(hits);
      expect(comparable(found)).toEqual(comparable(expected));
    },
  );

  it('searches a line longer than the chunk (the buffer grows for it)', async () => {
    const request = requestFor('chunks.log', 'content');
    const found = await withNode('chunks.log', request, SMALL_CHUNK);
    expect(found?.lines.find((hit) => hit.line === 5001)?.text).toMatch(
      /^(long ){60000}NEEDLE in a long row$/,
    );
  });

  it('gives each line of a large file its byte offset, as ripgrep does', async () => {
    const request = requestFor('big.log', 'content', 1, 1);
    const bytes = await readFile(join(dir, 'big.log'));
    expect(bytes.length).toBeGreaterThanOrEqual(LINE_STARTS_MIN_BYTES);
    const found = await withNode('big.log', request);
    expect(found).toEqual(await withRipgrep(request));
    // Eight matches with a line either side, the last match being the last line.
    expect(found?.lines).toHaveLength(23);
    for (const hit of found?.lines ?? []) {
      const start = hit.offset as number;
      expect(bytes[start - 1]).toBe(10);
      expect(bytes.subarray(start, start + hit.text.length).toString()).toBe(hit.text);
    }
  });

  it.each(Array.from({ length: 12 }, (_, trial) => trial))(
    'stops where ripgrep stops in a file with a NUL byte (case %i: its line buffer replayed)',
    async (trial) => {
      const { name, context } = await writeNulCase(trial);
      for (const mode of ['content', 'files_with_matches'] as const) {
        const request = requestFor(name, mode, context, context);
        const expected = await withRipgrep(request);
        expect(expected?.path).toBe(name);
        for (const chunkBytes of [SMALL_CHUNK, undefined]) {
          const found = await withNode(name, request, chunkBytes);
          if (mode === 'files_with_matches') expect(found?.path).toBe(expected?.path);
          else expect(withoutOffsets(found)).toEqual(withoutOffsets(expected));
        }
      }
    },
  );

  it('in files mode, leaves out a file whose first match ripgrep reads together with a NUL past the chunk', async () => {
    // Rows of 1000 bytes. ripgrep's 64 KiB reads start at rows 0, 65 and 130: the third brings in
    // row 130 and the NUL at 132 000 together, so ripgrep never searches that row. The Node
    // engine's first 128 KiB read holds all of row 130 (it ends at 131 000) and not the NUL.
    const rows = Array.from(
      { length: 300 },
      (_, i) => `row ${String(i).padStart(6, '0')} ${'.'.repeat(988)}`,
    );
    rows[130] = `hit ${String(130).padStart(6, '0')} NEEDLE ${'.'.repeat(981)}`;
    const text = `${rows.join('\n')}\n`;
    const nul = 132_000;
    await writeFile(
      join(dir, 'match-then-nul.log'),
      Buffer.from(`${text.slice(0, nul)}\0${text.slice(nul)}`),
    );
    const request = requestFor('match-then-nul.log', 'files_with_matches');
    expect(await withRipgrep(request)).toBeUndefined();
    expect(await withNode('match-then-nul.log', request, 2 * SMALL_CHUNK)).toBeUndefined();
    // A NUL past ripgrep's third read (it ends at 195 536) leaves row 130 searched: both list it.
    const later = 200_000;
    await writeFile(
      join(dir, 'match-nul-later.log'),
      Buffer.from(`${text.slice(0, later)}\0${text.slice(later)}`),
    );
    const plain = requestFor('match-nul-later.log', 'files_with_matches');
    expect((await withRipgrep(plain))?.path).toBe('match-nul-later.log');
    expect((await withNode('match-nul-later.log', plain, 2 * SMALL_CHUNK))?.path).toBe('match-nul-later.log');
  });

  it('fails a file with a line over the limit with INVALID_ARGUMENTS that says what to do', async () => {
    const request = requestFor('wide.log', 'content');
    const state = createFileSearchState(request.pattern, {
      chunkBytes: SMALL_CHUNK,
      maxLineBytes: 256 * 1024,
    });
    const error = await Promise.resolve()
      .then(() => searchFile('wide.log', request.root, request, state))
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect((error as ToolError).message).toContain('wide.log has a line longer than 256 KB');
    expect((error as ToolError).message).toContain('install ripgrep');
    expect(state.buffer.length).toBe(SMALL_CHUNK);
  });
});
