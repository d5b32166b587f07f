import { copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, inCI, makeTempDir, okText } from '../helpers/index.js';
import { findRipgrep } from '../../src/grep/find-ripgrep.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

const ripgrep = findRipgrep();
if (!ripgrep && inCI) throw new Error('ripgrep (rg) must be on PATH in CI: apt-get install ripgrep');

const ROWS = 3_000_000;
const NEEDLE_LINE = 2_500_000;

/** Bytes this process has read so far (threads included), from the kernel's accounting. */
async function bytesReadByProcess(): Promise<number> {
  const io = await readFile('/proc/self/io', 'utf8');
  return Number(/^rchar: (\d+)$/m.exec(io)?.[1]);
}

const engines: ReadonlyArray<readonly [string, false | undefined]> = [
  ...(ripgrep ? [['ripgrep', undefined] as const] : []),
  ['the Node engine', false],
];

describe.each(engines)('grep (%s), then read near the match, in a large file', (_engine, engine) => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let provider: BuiltinProvider;
  const ctx = context('grep-read');

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-grep-read-'));
    const rows = Array.from({ length: ROWS }, (_, i) => `entry ${i + 1} status=ok`);
    rows[NEEDLE_LINE - 1] = `entry ${NEEDLE_LINE} status=NEEDLE`;
    await writeFile(join(dir, 'big.log'), `${rows.join('\n')}\n`);
    await copyFile(join(dir, 'big.log'), join(dir, 'other.log'));
    // grep hands line starts to the index only for files settled 2 s before the search.
    const settled = (await stat(join(dir, 'other.log'))).ctimeMs + 2100;
    await sleep(Math.max(0, settled - Date.now()));
    // No background index builds: the bytes counted below are the reads' own.
    provider = createBuiltinProvider({
      workspace: dir,
      tools: ['read', 'grep'],
      indexAhead: false,
      ...(engine === false ? { grep: { ripgrep: false } } : {}),
    });
  });
  afterAll(async () => {
    await provider.close?.();
    await cleanup();
  });

  /** Reads 40 lines around `line` and returns the text with the bytes the read took. */
  async function readAround(path: string, line: number): Promise<{ text: string; bytes: number }> {
    const before = await bytesReadByProcess();
    const text = okText(await provider.execute('read', { path, offset: line - 20, limit: 40 }, ctx));
    return { text, bytes: (await bytesReadByProcess()) - before };
  }

  it('reads around the match without counting the lines before it', async () => {
    const searched = await provider.execute(
      'grep',
      { pattern: 'NEEDLE', path: 'big.log', output_mode: 'content' },
      ctx,
    );
    expect(searched.ok && searched.structured).toMatchObject({
      engine: engine === false ? 'node' : 'ripgrep',
    });
    const found = okText(searched);
    const line = Number(/^(\d+):entry \d+ status=NEEDLE$/m.exec(found)?.[1]);
    expect(line).toBe(NEEDLE_LINE);
    const size = (await stat(join(dir, 'big.log'))).size;

    const near = await readAround('big.log', line);
    expect(near.text).toContain(`${line}\tentry ${line} status=NEEDLE`);
    expect(near.text).toContain(`${line - 20}\tentry ${line - 20} status=ok`);
    // The same read of a copy nobody searched counts the ~55 MiB before the line.
    const cold = await readAround('other.log', line);
    expect(cold.text).toContain(`${line}\tentry ${line} status=NEEDLE`);
    expect(cold.bytes).toBeGreaterThan(size * 0.75);
    expect(near.bytes).toBeLessThan(size * 0.1);
  });
});
