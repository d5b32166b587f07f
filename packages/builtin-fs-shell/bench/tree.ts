// Generates a large source-like tree for the search benchmarks (deterministic content).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const WORDS = [
  'const',
  'value',
  'return',
  'function',
  'import',
  'export',
  'await',
  'result',
  'handler',
  'config',
  'request',
  'response',
  'buffer',
  'stream',
  'index',
  'server',
];

function pseudoRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

/** Writes `files` files of about `bytesPerFile` bytes under `root`, in nested directories. */
export async function generateTree(root: string, files: number, bytesPerFile: number): Promise<void> {
  const random = pseudoRandom(42);
  const extensions = ['ts', 'js', 'md', 'json', 'py'];
  for (let i = 0; i < files; i++) {
    const directory = join(root, `pkg${i % 40}`, `mod${Math.floor(i / 40) % 25}`, `part${i % 7}`);
    await mkdir(directory, { recursive: true });
    const lines: string[] = [];
    let size = 0;
    while (size < bytesPerFile) {
      const count = 4 + Math.floor(random() * 8);
      const words = Array.from({ length: count }, () => WORDS[Math.floor(random() * WORDS.length)]);
      if (random() < 0.002) words.push('NEEDLE_TOKEN');
      const line = `  ${words.join(' ')};`;
      lines.push(line);
      size += line.length + 1;
    }
    await writeFile(
      join(directory, `file${i}.${extensions[i % extensions.length]}`),
      `${lines.join('\n')}\n`,
    );
  }
}
