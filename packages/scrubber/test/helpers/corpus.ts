// Builds the mixed text/code/JSON corpus of the benchmark from the repository's node_modules.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const TEXT_FILE = /\.(?:js|mjs|cjs|ts|mts|md|json|yml|yaml|txt)$/;

/** Paths of text files under `root`, sorted, walking at most `maxFiles` files. */
export function textFiles(root: string, maxFiles: number): string[] {
  const files: string[] = [];
  const walk = (directory: string, depth: number): void => {
    if (depth > 14 || files.length >= maxFiles) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (files.length >= maxFiles) return;
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path, depth + 1);
      else if (entry.isFile() && TEXT_FILE.test(entry.name)) files.push(path);
    }
  };
  walk(root, 0);
  return files;
}

/** Concatenated contents of text files under `root` up to `bytes` characters (files over 1 MB skipped). */
export function readTextCorpus(
  root: string,
  bytes: number,
  maxFiles = 200_000,
): { text: string; files: number } {
  const parts: string[] = [];
  let total = 0;
  let files = 0;
  for (const path of textFiles(root, maxFiles)) {
    if (total >= bytes) break;
    try {
      if (statSync(path).size > 1_000_000) continue;
      const content = readFileSync(path, 'utf8');
      parts.push(content);
      total += content.length;
      files++;
    } catch {
      // unreadable file: skip
    }
  }
  return { text: parts.join('\n').slice(0, bytes), files };
}
