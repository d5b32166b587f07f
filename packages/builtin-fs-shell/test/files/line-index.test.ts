import { describe, expect, it } from 'vitest';
import { SEGMENT_BYTES } from '../../src/files/count-serially.js';
import { LineIndexCache } from '../../src/files/line-index.js';

const MiB = 1024 * 1024;
const version = { size: 1024 * MiB, mtimeMs: 1, ino: 7 };

describe('LineIndexCache: the part counted from the start, and anchors past it', () => {
  it('keeps a point far past the counted part as an anchor, and the counted part where it was', () => {
    const index = new LineIndexCache();
    index.record('f', version, 1 * MiB, 10_000);
    index.record('f', version, 500 * MiB, 5_000_000);
    expect(index.furthest('f', version)).toEqual({ offset: 1 * MiB, newlines: 10_000 });
    expect(index.anchorCount('f', version)).toBe(1);
    // A line after the anchor counts from it; one before it from the counted part.
    expect(index.nearest('f', version, 5_000_100)).toEqual({ offset: 500 * MiB, newlines: 5_000_000 });
    expect(index.nearest('f', version, 4_000_000)).toEqual({ offset: 1 * MiB, newlines: 10_000 });
    // The anchor is the point to count back from for a line just before it.
    expect(index.following('f', version, 4_999_990)).toEqual({ offset: 500 * MiB, newlines: 5_000_000 });
    expect(index.following('f', version, 5_000_002)).toBeUndefined();
    expect(index.anchored('f', version, 4_999_990, 4 * MiB)).toBe(true);
    expect(index.anchored('f', version, 5_000_100, 4 * MiB)).toBe(true);
  });

  it('calls a line anchored by an anchor after it only when counting back from it is short', () => {
    const index = new LineIndexCache();
    index.record('f', version, 1 * MiB, 10_000);
    // About 105 bytes a line before the anchor: 4 MiB back is about 40,000 lines.
    index.record('f', version, 500 * MiB, 5_000_000);
    expect(index.anchored('f', version, 4_970_000, 4 * MiB)).toBe(true);
    // 500,000 lines before the anchor: a read would count back 4 MiB in vain, then forward.
    expect(index.anchored('f', version, 4_500_000, 4 * MiB)).toBe(false);
    expect(index.anchored('f', version, 4_500_000, 100 * MiB)).toBe(true);
    expect(index.anchored('other', version, 4_970_000, 4 * MiB)).toBe(false);
  });

  it('extends the counted part only within one spacing and segment of its end', () => {
    const index = new LineIndexCache();
    const spacing = Math.max(MiB, Math.ceil(version.size / 4096));
    index.record('f', version, spacing + SEGMENT_BYTES, 100);
    expect(index.furthest('f', version).offset).toBe(spacing + SEGMENT_BYTES);
    index.record('f', version, 2 * (spacing + SEGMENT_BYTES) + 1, 200);
    expect(index.furthest('f', version).offset).toBe(spacing + SEGMENT_BYTES);
    expect(index.anchorCount('f', version)).toBe(1);
  });

  it('drops anchors the counted part reaches, and knows the end only as an anchor until then', () => {
    const index = new LineIndexCache();
    // 10,000 lines per MiB throughout.
    const newlinesBefore = (offset: number): number => (offset / MiB) * 10_000;
    index.record('f', version, 300 * MiB, newlinesBefore(300 * MiB));
    index.complete('f', version, newlinesBefore(version.size), newlinesBefore(version.size));
    expect(index.totalLines('f', version)).toBe(10_240_000);
    // The end is known, but counts from the start have not covered the file.
    expect(index.isComplete('f', version)).toBe(false);
    expect(index.anchorCount('f', version)).toBe(2);
    // A count from the start walks to 301 MiB: the first anchor is behind it now.
    for (let offset = MiB; offset <= 301 * MiB; offset += MiB)
      index.record('f', version, offset, newlinesBefore(offset));
    expect(index.anchorCount('f', version)).toBe(1);
    expect(index.nearest('f', version, 3_000_100)).toEqual({ offset: 300 * MiB, newlines: 3_000_000 });
    for (let offset = 302 * MiB; offset < version.size; offset += MiB)
      index.record('f', version, offset, newlinesBefore(offset));
    index.complete('f', version, newlinesBefore(version.size), newlinesBefore(version.size));
    expect(index.isComplete('f', version)).toBe(true);
    expect(index.anchorCount('f', version)).toBe(0);
  });

  it('keeps anchors apart and bounded, spread over the file when full', () => {
    const index = new LineIndexCache({ maxAnchors: 8 });
    index.record('f', version, 100 * MiB, 1000);
    index.record('f', version, 100 * MiB + 1000, 1010);
    expect(index.anchorCount('f', version)).toBe(1);
    for (let slot = 1; slot <= 20; slot++)
      index.record('f', version, (100 + slot * 40) * MiB, 1000 + slot * 400);
    expect(index.anchorCount('f', version)).toBeLessThanOrEqual(8);
    expect(index.anchorCount('f', version)).toBeGreaterThanOrEqual(4);
    // Both ends of the range are still near an anchor.
    expect(index.nearest('f', version, 1002).offset).toBe(100 * MiB);
    expect(index.nearest('f', version, 9000 + 2).offset).toBeGreaterThan(700 * MiB);
  });

  it('forgets anchors with the version they belong to', () => {
    const index = new LineIndexCache();
    index.record('f', version, 500 * MiB, 5_000_000);
    const changed = { ...version, mtimeMs: 2 };
    expect(index.anchorCount('f', changed)).toBe(0);
    expect(index.nearest('f', changed, 5_000_100)).toEqual({ offset: 0, newlines: 0 });
    expect(index.following('f', changed, 4_999_990)).toBeUndefined();
  });
});
