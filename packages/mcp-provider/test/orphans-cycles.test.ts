// Start/close cycles of a wrapped server with grandchildren leave no process. In a file of its
// own (it is the longest test of the suite), so it runs beside the other files.
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../src/index.js';
import { pidsWithTag, tempDirectory, uniqueTag, waitFor, wrappedServer } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

const CYCLES = 50;
/** Cycles run in this many lanes at once: each cycle mostly waits for processes to start and end. */
const LANES = 2;

describe('no orphans', () => {
  it(`leaves no process after ${CYCLES} start/close cycles of a wrapped server with grandchildren`, async () => {
    const tag = uniqueTag();
    expect(pidsWithTag(tag)).toHaveLength(0);
    const lane = async (first: number): Promise<void> => {
      for (let cycle = first; cycle < CYCLES; cycle += LANES) {
        const provider = createMcpProvider(`wrapped${first}`, wrappedServer(tag), { runDirectory: run.path });
        await provider.start?.(AbortSignal.timeout(30_000));
        if (cycle % 10 === 0) {
          // A grandchild in the group and one that escaped it with setsid.
          await provider.execute('spawn_grandchild', {}, createToolContext());
          await provider.execute('spawn_grandchild', { detached: true }, createToolContext());
        }
        await provider.close?.();
      }
    };
    await Promise.all(Array.from({ length: LANES }, (_, first) => lane(first)));
    expect(await waitFor(() => pidsWithTag(tag).length === 0, 10_000)).toBe(true);
  }, 300_000);
});
