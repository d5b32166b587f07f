import { readdir, readlink, rename, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { context, makeTempDir, okText, textOf } from '../helpers/index.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

/** `count` lines of `width` bytes each (newline included): a prefix and the zero-padded line number. */
function fixedWidthRows(prefix: string, count: number, width: number): string {
  const digits = width - 1 - prefix.length;
  let text = '';
  for (let i = 1; i <= count; i++) text += `${prefix}${String(i).padStart(digits, '0')}\n`;
  return text;
}

/** Descriptors of this process open on `path`. */
async function openDescriptors(path: string): Promise<number> {
  let open = 0;
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target === path) open++;
  }
  return open;
}

describe('read of large files: skip phase and index-ahead through the tool', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let provider: BuiltinProvider;
  const ctx = context('large');
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-read-large-'));
    // A 1-byte threshold so files of a few MiB are indexed ahead (the default is 32 MiB).
    provider = createBuiltinProvider({ workspace: dir, tools: ['read'], indexAhead: { minBytes: 1 } });
  });
  afterEach(async () => {
    await provider.close?.();
    await cleanup();
  });
  const read = (args: Record<string, unknown>, c = ctx) => provider.execute('read', args, c);

  it('reads the right lines after the file is replaced by one of the same size and mtime', async () => {
    const path = join(dir, 'data.txt');
    const moment = new Date('2026-01-02T03:04:05Z');
    // 8-byte lines, then 16-byte lines: the same 4 MiB, half the lines, every line elsewhere.
    await writeFile(path, fixedWidthRows('a', 524_288, 8));
    await utimes(path, moment, moment);
    const head = okText(await read({ path: 'data.txt', limit: 2 }));
    expect(head).toContain('     1\ta000001');
    await provider.indexingIdle();
    expect(okText(await read({ path: 'data.txt', offset: 400_000, limit: 1 }))).toContain('400000\ta400000');
    const before = await stat(path);
    const replacement = join(dir, 'data.txt.new');
    await writeFile(replacement, fixedWidthRows('b', 262_144, 16));
    await utimes(replacement, moment, moment);
    await rename(replacement, path);
    const after = await stat(path);
    // Only the inode tells the two versions apart.
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
    expect(after.ino).not.toBe(before.ino);
    expect(okText(await read({ path: 'data.txt', offset: 200_000, limit: 1 }))).toContain(
      '200000\tb00000000200000',
    );
    await provider.indexingIdle();
    expect(okText(await read({ path: 'data.txt', offset: 262_144, limit: 5 }))).toContain(
      'end of file (262144 lines)',
    );
  });

  it('reads right while the index is built, and after lines are inserted', async () => {
    const path = join(dir, 'log.txt');
    await writeFile(path, fixedWidthRows('x', 300_000, 12));
    expect(okText(await read({ path: 'log.txt', limit: 1 }))).toContain('     1\tx0000000001');
    // No wait: these reads meet the build running.
    const [deep, deeper] = await Promise.all([
      read({ path: 'log.txt', offset: 250_000, limit: 1 }),
      read({ path: 'log.txt', offset: 299_999, limit: 5 }),
    ]);
    expect(okText(deep)).toContain('250000\tx0000250000');
    expect(okText(deeper)).toContain('300000\tx0000300000');
    await provider.indexingIdle();
    // Ten lines inserted near the top shift every later line number.
    const inserted = `${fixedWidthRows('x', 10, 12)}${fixedWidthRows('y', 10, 12)}${fixedWidthRows('x', 300_000, 12).slice(120)}`;
    await writeFile(path, inserted);
    expect(okText(await read({ path: 'log.txt', offset: 250_010, limit: 1 }))).toContain(
      '250010\tx0000250000',
    );
  });

  it('reads the same deep lines with and without counting threads', async () => {
    const path = join(dir, 'threads.txt');
    // 16 MiB: a cold deep read hands most of its count to the threads (4 MiB blocks).
    await writeFile(path, fixedWidthRows('t', 1_048_576, 16));
    const options = { workspace: dir, tools: ['read'] as const, indexAhead: false as const };
    const threaded = createBuiltinProvider(options);
    const serial = createBuiltinProvider({ ...options, countThreads: false });
    try {
      for (const offset of [3, 300_001, 777_777, 1_048_570]) {
        const args = { path: 'threads.txt', offset, limit: 3 };
        const [a, b] = [await threaded.execute('read', args, ctx), await serial.execute('read', args, ctx)];
        expect(okText(a)).toContain(`${offset}\tt${String(offset).padStart(14, '0')}`);
        expect(okText(a)).toBe(okText(b));
      }
      expect(textOf(await threaded.execute('read', { path: 'threads.txt', offset: 1_048_577 }, ctx))).toMatch(
        /past the end of threads\.txt \(1048576 lines\)/,
      );
      expect(await openDescriptors(path)).toBe(0);
    } finally {
      await threaded.close?.();
      await serial.close?.();
    }
  });

  it('tells the line count of a large file once it is known, a last line without newline included', async () => {
    // 8 MiB and a last line without "\n": too far to count at the head read, known after index-ahead.
    await writeFile(join(dir, 'count.txt'), `${fixedWidthRows('n', 524_288, 16)}tail without newline`);
    const head = await read({ path: 'count.txt', limit: 2 });
    expect(okText(head)).toContain('(count.txt continues after line 2; pass offset=3 to read more)');
    expect(head.ok && head.structured).not.toHaveProperty('totalLines');
    await provider.indexingIdle();
    const again = await read({ path: 'count.txt', offset: 100, limit: 2 });
    expect(okText(again)).toContain(
      '(count.txt continues after line 101 of 524289; pass offset=102 to read more)',
    );
    expect(again.ok && again.structured).toMatchObject({ more: true, totalLines: 524_289 });
    // Near the end the rest is counted on the spot, without any index.
    const fresh = createBuiltinProvider({ workspace: dir, tools: ['read'], indexAhead: false });
    try {
      const near = await fresh.execute('read', { path: 'count.txt', offset: 524_000, limit: 2 }, ctx);
      expect(okText(near)).toContain('continues after line 524001 of 524289;');
    } finally {
      await fresh.close?.();
    }
  });

  it('refuses an offset past the end of a large file with its line count', async () => {
    await writeFile(join(dir, 'big.txt'), fixedWidthRows('r', 200_000, 10));
    const past = await read({ path: 'big.txt', offset: 200_001 });
    expect(textOf(past)).toMatch(
      /INVALID_ARGUMENTS: offset 200001 is past the end of big\.txt \(200000 lines\); pass a smaller offset/,
    );
  });

  it('reports a read cancelled during its scan as CANCELLED', async () => {
    await writeFile(join(dir, 'big.txt'), fixedWidthRows('r', 400_000, 10));
    const controller = new AbortController();
    const pending = read(
      { path: 'big.txt', offset: 399_000, limit: 1 },
      context('large', { signal: controller.signal }),
    );
    controller.abort();
    const result = await pending;
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('CANCELLED');
  });

  it('stops the background build when the provider closes, leaving no descriptor open', async () => {
    const path = join(dir, 'closing.txt');
    await writeFile(path, fixedWidthRows('c', 1_000_000, 16));
    okText(await read({ path: 'closing.txt', limit: 1 }));
    await provider.close?.();
    await provider.indexingIdle();
    expect(await openDescriptors(path)).toBe(0);
    expect(textOf(await read({ path: 'closing.txt', limit: 1 }))).toMatch(/PROVIDER_UNAVAILABLE/);
  });
});
