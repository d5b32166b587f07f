import { describe, expect, it } from 'vitest';
import { LineReader, TailBuffer } from '../src/stdio/line-reader.js';

describe('LineReader', () => {
  it('joins lines split across chunks and strips CR', () => {
    const reader = new LineReader(1024);
    expect(reader.push(Buffer.from('{"a":'))).toEqual([]);
    expect(reader.push(Buffer.from('1}\r\n{"b":2}\n{"c"'))).toEqual(['{"a":1}', '{"b":2}']);
    expect(reader.push(Buffer.from(':3}\n'))).toEqual(['{"c":3}']);
  });

  it('refuses a line over the limit and recovers', () => {
    const reader = new LineReader(10);
    expect(() => reader.push(Buffer.from('x'.repeat(11)))).toThrow(/exceeds 10 bytes/);
    expect(reader.push(Buffer.from('ok\n'))).toEqual(['ok']);
  });

  it('refuses a line over the limit that ends in the chunk that completes it, or in one chunk', () => {
    const reader = new LineReader(10);
    expect(reader.push(Buffer.from('x'.repeat(9)))).toEqual([]);
    expect(() => reader.push(Buffer.from('xxxxx\n'))).toThrow(/exceeds 10 bytes/);
    expect(() => reader.push(Buffer.from(`${'y'.repeat(20)}\n`))).toThrow(/exceeds 10 bytes/);
    expect(reader.push(Buffer.from(`${'z'.repeat(10)}\n`))).toEqual(['z'.repeat(10)]);
  });
});

describe('TailBuffer', () => {
  it('keeps only the last bytes of a flood', () => {
    const tail = new TailBuffer(100);
    for (let i = 0; i < 10_000; i++) tail.push(`line ${i}\n`);
    const text = tail.toString();
    expect(text.length).toBeLessThanOrEqual(100);
    expect(text.endsWith('line 9999')).toBe(true);
  });
});
