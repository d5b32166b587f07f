import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../src/scrubber.js';
import type { StreamScrubber } from '../src/stream.js';

// What a stream holds is a short tail; as a slice of the text it last scanned it would keep that
// whole text alive (V8 slices point into their parent string). These tests count the heap after
// a full collection while the stream scrubber is still referenced, as a caller reading its
// `findings` after the stream ends would keep it.

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
function heapUsed(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

const scrubber = createScrubber();
const MB = 1 << 20;
/** 48 MB of ordinary text ending in a run the stream holds back, built where no caller keeps it. */
const bigChunk = (): string => 'lorem ipsum '.repeat(4 * MB).concat('tail-without-a-blank-0123456789');

async function feedThenStop(
  stream: StreamScrubber,
  stop: 'abort-writable' | 'cancel-readable',
): Promise<void> {
  const transform = stream.readable();
  const writer = transform.writable.getWriter();
  const reader = transform.readable.getReader();
  void writer.write(bigChunk());
  const first = await reader.read();
  expect(first.value?.startsWith('lorem ipsum lorem')).toBe(true);
  if (stop === 'abort-writable') await writer.abort(new Error('the client went away'));
  else await reader.cancel(new Error('the reader went away'));
}

describe('a stream scrubber stopped midway', () => {
  for (const stop of ['abort-writable', 'cancel-readable'] as const) {
    it(`drops what it held when its readable() is stopped (${stop}), and says so when used again`, async () => {
      const before = heapUsed();
      const stream = scrubber.createStreamScrubber();
      await feedThenStop(stream, stop);
      const grown = heapUsed() - before;
      expect(grown).toBeLessThan(8 * MB);
      expect(stream.flush()).toBe('');
      expect(() => stream.write('more')).toThrowError(/CANCELLED|cancelled/);
      try {
        stream.write('more');
      } catch (error) {
        expect((error as { code?: string }).code).toBe('CANCELLED');
      }
    });
  }

  it('does not keep a large chunk alive through the short tail it holds between writes', () => {
    const before = heapUsed();
    const stream = scrubber.createStreamScrubber();
    const chunk = bigChunk().length;
    const emitted = stream.write(bigChunk()).length;
    expect(emitted).toBeGreaterThan(40 * MB);
    const grown = heapUsed() - before;
    expect(grown).toBeLessThan(8 * MB);
    expect(emitted + stream.flush().length).toBe(chunk);
  });
});

describe('what rules remember of a scanned text', () => {
  // Rules that read a text once keep a note of where they stopped; the note holds the text, so
  // unless it is dropped the last large output with a Secret manifest, an rman line, a cookie
  // header or a known command stays in memory after scrub() returns.
  const heads = [
    'apiVersion: v1\nkind: Secret\ndata:\n  k: c2VjcmV0LXZhbHVl\n',
    '{"kind":"Secret","data":{"k":"c2VjcmV0LXZhbHVl"}}\n',
    'rman target sys/abcdefgh\n',
    'Cookie: session=abcdefgh12345678; theme=dark\n',
    'mysql -u root -pabcdefgh12345678 db\n',
  ];
  for (const head of heads) {
    it(`keeps nothing of a 48 MB output after scrub() returns (${JSON.stringify(head.slice(0, 24))})`, () => {
      const before = heapUsed();
      const found = ((): number => scrubber.scrub(head + bigChunk()).findings.length)();
      expect(found).toBeGreaterThan(0);
      expect(heapUsed() - before).toBeLessThan(8 * MB);
    });
  }

  it('keeps nothing of a 48 MB chunk a stream wrote, once it is flushed', () => {
    const before = heapUsed();
    const stream = scrubber.createStreamScrubber();
    const emitted = ((): number => stream.write(heads[0] + bigChunk()).length + stream.flush().length)();
    expect(emitted).toBeGreaterThan(40 * MB);
    expect(heapUsed() - before).toBeLessThan(8 * MB);
  });
});
