// Writes a text file of about `bytes` bytes in 8 MiB chunks (lines of ~100 bytes, numbered).
import { open } from 'node:fs/promises';

export async function generateLargeFile(path: string, bytes: number): Promise<number> {
  const handle = await open(path, 'w');
  let line = 0;
  let written = 0;
  try {
    while (written < bytes) {
      const rows: string[] = [];
      let chunk = 0;
      while (chunk < 8 * 1024 * 1024) {
        line++;
        const row = `line ${String(line).padStart(9, '0')} ${'lorem ipsum dolor sit amet '.repeat(3)}\n`;
        rows.push(row);
        chunk += row.length;
      }
      const data = rows.join('');
      await handle.write(data);
      written += data.length;
    }
  } finally {
    await handle.close();
  }
  return line;
}
