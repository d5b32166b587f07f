// Writes a text file of about `bytes` bytes (numbered lines of LINE_BYTES bytes) in a child
// process, so the memory used to generate it does not count in the benchmark's own peak RSS.
import { spawnSync } from 'node:child_process';

/** Text of line `line` (1-based), newline included; every line has the same length. */
export function lineText(line: number): string {
  return `line ${String(line).padStart(9, '0')} ${'lorem ipsum dolor sit amet '.repeat(3)}\n`;
}

/** Bytes of every line, so the offset of line N is (N - 1) * LINE_BYTES. */
export const LINE_BYTES: number = lineText(1).length;

const SCRIPT = `
const fs = require('node:fs');
const [path, bytes] = [process.argv[1], Number(process.argv[2])];
const lineText = ${lineText.toString()};
const fd = fs.openSync(path, 'w');
let line = 0, written = 0;
while (written < bytes) {
  const rows = [];
  let chunk = 0;
  while (chunk < 8 * 1024 * 1024) {
    line++;
    const row = lineText(line);
    rows.push(row);
    chunk += row.length;
  }
  const data = rows.join('');
  fs.writeSync(fd, data);
  written += data.length;
}
fs.closeSync(fd);
process.stdout.write(String(line));
`;

/** Generates the file; returns its number of lines. */
export function generateLargeFile(path: string, bytes: number): number {
  const child = spawnSync(process.execPath, ['-e', SCRIPT, path, String(bytes)], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`could not generate ${path}: ${child.stderr}`);
  return Number(child.stdout);
}
