// Benchmarks of @toolplane/builtin-fs-shell. Run: pnpm --filter @toolplane/builtin-fs-shell bench
// Baselines are measured in the same run: the rg command itself, tinyglobby, node:readline.
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { result, timeEach } from '@toolplane/bench';
import { createToolContext } from '@toolplane/core';
import { glob } from 'tinyglobby';
import { createBuiltinProvider } from '../src/index.js';
import { findRipgrep } from '../src/grep/find-ripgrep.js';
import { compilePattern } from '../src/grep/pattern.js';
import { ripgrepArguments } from '../src/grep/ripgrep.js';
import type { SearchRequest } from '../src/grep/search-request.js';
import { generateLargeFile } from './large-file.js';
import { generateTree } from './tree.js';

const FILES = Number(process.env.BENCH_FILES ?? 20_000);
const LARGE_BYTES = Number(process.env.BENCH_LARGE_BYTES ?? 1024 ** 3);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const PACKAGE = 'builtin-fs-shell';

function runRipgrep(binary: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    child.once('error', reject);
    child.once('close', () => resolve(bytes));
  });
}

async function readlineTo(path: string, offset: number, limit: number): Promise<string[]> {
  const lines: string[] = [];
  const stream = createReadStream(path);
  const reader = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let number = 0;
  for await (const line of reader) {
    number++;
    if (number >= offset) lines.push(line);
    if (lines.length >= limit) break;
  }
  reader.close();
  stream.destroy();
  return lines;
}

const ms = (us: number): number => us / 1000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/**
 * Times a candidate and its baseline alternately (the machine is shared and its load drifts,
 * so interleaving keeps the ratio fair); returns median milliseconds of each.
 */
async function timePair(
  candidate: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  runs: number,
): Promise<{ candidateMs: number; baselineMs: number; ratio: number }> {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const order = i % 2 === 0 ? [candidate, baseline] : [baseline, candidate];
    for (const fn of order) {
      const started = performance.now();
      await fn();
      const elapsed = performance.now() - started;
      if (i >= 2) (fn === candidate ? a : b).push(elapsed);
    }
  }
  const candidateMs = median(a);
  const baselineMs = median(b);
  return { candidateMs, baselineMs, ratio: candidateMs / baselineMs };
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'tp-bench-'));
  const ctx = createToolContext({ session: { id: 'bench' } });
  try {
    // read: a slice of a ~1 GB file. Run first so peak memory is this part's own.
    const largePath = join(root, 'large.txt');
    let started = performance.now();
    const totalLines = generateLargeFile(largePath, LARGE_BYTES);
    console.log(
      `generated ${(LARGE_BYTES / 1024 ** 3).toFixed(2)} GiB, ${totalLines} lines in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const reader = createBuiltinProvider({ workspace: root, tools: ['read'] });
    const middle = Math.floor(totalLines / 2);
    // Tool reads first, alone, so the peak RSS growth is theirs.
    const rssBefore = process.resourceUsage().maxRSS;
    const head = await timeEach(
      () => reader.execute('read', { path: 'large.txt', offset: 1, limit: 2000 }, ctx),
      RUNS,
      2,
    );
    started = performance.now();
    const cold = await reader.execute('read', { path: 'large.txt', offset: middle, limit: 2000 }, ctx);
    const coldMs = performance.now() - started;
    if (!cold.ok) throw new Error(`read failed: ${JSON.stringify(cold)}`);
    const warm = await timeEach(
      () => reader.execute('read', { path: 'large.txt', offset: middle + 17, limit: 2000 }, ctx),
      RUNS,
      1,
    );
    const rssGrowthMiB = (process.resourceUsage().maxRSS - rssBefore) / 1024;
    const headBaseline = await timeEach(() => readlineTo(largePath, 1, 2000), RUNS, 2);
    started = performance.now();
    await readlineTo(largePath, middle, 2000);
    const middleBaselineMs = performance.now() - started;
    await reader.close?.();
    await rm(largePath);
    result(`${PACKAGE}/read-1gb-head-slice`, ms(head.medianUs), 'ms', {
      baseline: 'node-readline',
      ratio: head.medianUs / headBaseline.medianUs,
    });
    result(`${PACKAGE}/read-1gb-middle-slice-cold`, coldMs, 'ms', {
      baseline: 'node-readline',
      ratio: coldMs / middleBaselineMs,
    });
    result(`${PACKAGE}/read-1gb-middle-slice-warm`, ms(warm.medianUs), 'ms', {
      baseline: 'node-readline',
      ratio: warm.medianUs / 1000 / middleBaselineMs,
    });
    result(`${PACKAGE}/read-1gb-peak-rss-growth`, rssGrowthMiB, 'MiB');

    // Search: a generated tree.
    const tree = join(root, 'tree');
    started = performance.now();
    await generateTree(tree, FILES, 3000);
    console.log(`generated ${FILES} files in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const rg = findRipgrep();
    const withRipgrep = createBuiltinProvider({ workspace: tree, tools: ['grep', 'glob'] });
    const withNode = createBuiltinProvider({ workspace: tree, tools: ['grep'], grep: { ripgrep: false } });
    const grepArgs = { pattern: 'NEEDLE_TOKEN', output_mode: 'content', head_limit: 10_000 };
    if (rg) {
      // The baseline is rg itself running the same search (the command line the tool builds).
      const request = (mode: SearchRequest['mode']): SearchRequest => ({
        root: tree,
        rootIsFile: false,
        pattern: compilePattern('NEEDLE_TOKEN', false),
        mode,
        globs: [],
        before: 0,
        after: 0,
        respectGitignore: true,
        skipDirectories: ['.git', 'node_modules'],
        hardMatchCap: 1_000_000,
      });
      const contentArgs = ripgrepArguments(request('content'));
      const filesArgs = ripgrepArguments(request('files_with_matches'));
      console.log(`rg baseline: rg ${contentArgs.join(' ')}`);
      const content = await timePair(
        () => withRipgrep.execute('grep', grepArgs, ctx),
        () => runRipgrep(rg, contentArgs, tree),
        RUNS,
      );
      const files = await timePair(
        () => withRipgrep.execute('grep', { pattern: 'NEEDLE_TOKEN' }, ctx),
        () => runRipgrep(rg, filesArgs, tree),
        RUNS,
      );
      const fallback = await timePair(
        () => withNode.execute('grep', grepArgs, ctx),
        () => runRipgrep(rg, contentArgs, tree),
        RUNS,
      );
      result(`${PACKAGE}/grep-content`, content.candidateMs, 'ms', {
        baseline: 'rg-cli',
        ratio: content.ratio,
      });
      result(`${PACKAGE}/grep-files`, files.candidateMs, 'ms', { baseline: 'rg-cli', ratio: files.ratio });
      result(`${PACKAGE}/grep-node-fallback-content`, fallback.candidateMs, 'ms', {
        baseline: 'rg-cli',
        ratio: fallback.ratio,
      });
    } else {
      console.log('rg is not on PATH: ripgrep comparisons skipped (apt-get install ripgrep)');
      const nodeContent = await timeEach(() => withNode.execute('grep', grepArgs, ctx), RUNS, 1);
      result(`${PACKAGE}/grep-node-fallback-content`, ms(nodeContent.medianUs), 'ms');
    }
    const globOptions = {
      cwd: tree,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      expandDirectories: false,
      ignore: ['**/.git/**', '**/node_modules/**'],
    };
    const tinyglobby = () => glob('**/*.ts', globOptions);
    const globName = await timePair(
      () => withRipgrep.execute('glob', { pattern: '**/*.ts', sort: 'name', limit: 10_000 }, ctx),
      tinyglobby,
      RUNS,
    );
    const globMtime = await timePair(
      () => withRipgrep.execute('glob', { pattern: '**/*.ts', limit: 10_000 }, ctx),
      tinyglobby,
      RUNS,
    );
    result(`${PACKAGE}/glob-by-name`, globName.candidateMs, 'ms', {
      baseline: 'tinyglobby',
      ratio: globName.ratio,
    });
    result(`${PACKAGE}/glob-by-mtime`, globMtime.candidateMs, 'ms', {
      baseline: 'tinyglobby',
      ratio: globMtime.ratio,
    });
    await withRipgrep.close?.();
    await withNode.close?.();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
