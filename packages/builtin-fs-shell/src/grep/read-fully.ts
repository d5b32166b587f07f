import { readSync } from 'node:fs';

/** Reads until `length` bytes are in or the file ends; the bytes read. */
export function readFully(
  fd: number,
  buffer: Buffer,
  offset: number,
  length: number,
  position: number,
): number {
  let total = 0;
  while (total < length) {
    const read = readSync(fd, buffer, offset + total, length - total, position + total);
    if (read === 0) break;
    total += read;
  }
  return total;
}

/** Reads bytes of a file at a position, as {@link readFully}: the bytes read. */
export type ReadAt = (buffer: Buffer, offset: number, length: number, position: number) => number;

/** A {@link ReadAt} over an open file. */
export function fileReader(fd: number): ReadAt {
  return (buffer, offset, length, position) => readFully(fd, buffer, offset, length, position);
}
