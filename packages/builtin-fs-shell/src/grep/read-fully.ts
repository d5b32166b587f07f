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
