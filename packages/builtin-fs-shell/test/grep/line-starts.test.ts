import { open, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inCI, makeTempDir } from '../helpers/index.js';
import { LineIndexCache, versionOf } from '../../src/files/line-index.js';
import { findRipgrep } from '../../src/grep/find-ripgrep.js';
import { LINE_STARTS_MIN_BYTES, rememberLineStarts } from '../../src/grep/line-starts.js';
import { compilePattern } from '../../src/grep/pattern.js';
import type { FileHits } from '../../src/grep/results.js';
import { searchWithRipgrep } from '../../src/grep/ripgrep.js';

const ripgrep = findRipgrep();
if (!ripgrep && inCI) throw new Error('ripgrep (rg) must be on PATH in CI: apt-get install ripgrep');

let dir: string;
let cleanup: () => Promise<void>;
let text: string;
/** Lines holding the needle, 1-based. */
const NEEDLES = [700_000, 800_000, 800_003];
const ROWS = 900_000;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('tp-line-starts-'));
  const rows = Array.from({ length: ROWS }, (_, i) => `entry ${i + 1} status=ok`);
  for (const line of NEEDLES) rows[line - 1] = `entry ${line} status=NEEDLE`;
  text = `${rows.join('\n')}\n`;
  expect(Buffer.byteLength(text)).toBeGreaterThan(LINE_STARTS_MIN_BYTES);
  await writeFile(join(dir, 'big.log'), text);
  // The same lines after a UTF-8 byte order mark: ripgrep drops the mark, so its offsets are 3 short.
  await writeFile(join(dir, 'bom.log'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
  await writeFile(join(dir, 'small.log'), 'one\nentry 2 status=NEEDLE\n');
});
afterAll(() => cleanup());

/** Byte offset where line `line` of the test text starts. */
function startOf(line: number): number {
  let offset = 0;
  for (let i = 1; i < line; i++) offset = text.indexOf('\n', offset) + 1;
  return offset;
}

async function search(context: number): Promise<FileHits[]> {
  const outcome = await searchWithRipgrep(ripgrep as string, {
    root: dir,
    rootIsFile: false,
    pattern: compilePattern('NEEDLE', false),
    mode: 'content',
    globs: [],
    before: context,
    after: context,
    respectGitignore: true,
    skipDirectories: [],
    hardMatchCap: 1000,
  });
  return outcome.files;
}

/** A search that began this long after the files were written: they had settled by then. */
const settledStart = async (): Promise<number> => (await stat(join(dir, 'bom.log'))).ctimeMs + 2500;

async function versionOfFile(name: string) {
  const handle = await open(join(dir, name));
  try {
    return versionOf(await handle.stat());
  } finally {
    await handle.close();
  }
}

describe.skipIf(!ripgrep)('rememberLineStarts: what a ripgrep search tells the line index', () => {
  it('reports each line with its byte offset, context lines included', async () => {
    const big = (await search(1)).find((file) => file.path === 'big.log');
    expect(big?.lines.map((hit) => [hit.line, hit.match, hit.offset])).toEqual(
      [699_999, 700_000, 700_001, 799_999, 800_000, 800_001, 800_002, 800_003, 800_004].map((line) => [
        line,
        NEEDLES.includes(line),
        startOf(line),
      ]),
    );
  });

  it('anchors the lines of a large settled file, exactly, and no others', async () => {
    const index = new LineIndexCache();
    const files = await search(0);
    expect(files.map((file) => file.path)).toEqual(['big.log', 'bom.log', 'small.log']);
    const remembered = await rememberLineStarts({
      files,
      directory: dir,
      index,
      startedAt: await settledStart(),
    });
    expect(remembered).toBe(3);
    const key = join(dir, 'big.log');
    const version = await versionOfFile('big.log');
    // Two of the three needles lie within 64 KiB of each other: the index keeps one of them.
    expect(index.anchorCount(key, version)).toBe(2);
    for (const line of [700_000, 800_000]) {
      expect(index.following(key, version, line)).toEqual({ offset: startOf(line), newlines: line - 1 });
    }
    // ripgrep's offsets in the byte-order-marked file are not its bytes: none kept.
    expect(index.anchorCount(join(dir, 'bom.log'), await versionOfFile('bom.log'))).toBe(0);
    expect(index.size).toBe(1);
  });

  it('leaves out a file whose status changed after the search began', async () => {
    const index = new LineIndexCache();
    const files = await search(0);
    const changedAt = (await stat(join(dir, 'big.log'))).ctimeMs;
    const remembered = await rememberLineStarts({ files, directory: dir, index, startedAt: changedAt });
    expect(remembered).toBe(0);
    expect(index.size).toBe(0);
  });

  it('leaves out hits whose text is not in the file at their offset', async () => {
    const index = new LineIndexCache();
    const files = (await search(0)).map((file) => ({
      ...file,
      lines: file.lines.map((hit) => ({ ...hit, text: hit.text.replace('NEEDLE', 'NEEDLF') })),
    }));
    expect(await rememberLineStarts({ files, directory: dir, index, startedAt: await settledStart() })).toBe(
      0,
    );
  });
});
