// Benchmarks of @toolplane/builtin-fs-shell. Run: pnpm --filter @toolplane/builtin-fs-shell bench
// Baselines are measured in the same run: the rg command itself, tinyglobby, node:readline, a raw read.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median, result, timeEach } from '@toolplane/bench';
import { createToolContext } from '@toolplane/core';
import { glob } from 'tinyglobby';
import { createBuiltinProvider } from '../src/index.js';
import { findRipgrep } from '../src/grep/find-ripgrep.js';
import { compilePattern } from '../src/grep/pattern.js';
import { ripgrepArguments } from '../src/grep/ripgrep.js';
import type { SearchRequest } from '../src/grep/search-request.js';
import { benchLargeRead } from './read-large.js';
import { benchNewlineCount } from './newline-count.js';
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

const ms = (us: number): number => us / 1000;

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
    // The counting kernel alone, from cache (allocates two 256 KiB buffers).
    benchNewlineCount(RUNS);
    // read: slices of a ~1 GiB file. Run first so peak memory is this part's own.
    await benchLargeRead(root, ctx, LARGE_BYTES, RUNS);
    await rm(join(root, 'large.txt'));

    // Search: a generated tree.
    const tree = join(root, 'tree');
    const started = performance.now();
    await generateTree(tree, FILES, 3000);
    console.log(`generated ${FILES} files in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const rg = findRipgrep();
    const withRipgrep = createBuiltinProvider({ workspace: tree, tools: ['grep', 'glob'] });
    const withNode = createBuiltinProvider({ workspace: tree, tools: ['grep'], grep: { ripgrep: false } });
    const grepArgs = { pattern: 'NEEDLE_TOKEN', output_mode: 'content', head_limit: 10_000 };
    if (rg) {
      // The baseline is rg itself running the same search (the command line the tool builds).
      const request = (mode: SearchRequest['mode'], pattern = 'NEEDLE_TOKEN'): SearchRequest => ({
        root: tree,
        rootIsFile: false,
        pattern: compilePattern(pattern, false),
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
      // A pattern with no literal to skip files by: every file goes through the regex engine
      // (V8's, each slice under the backtracking watchdog).
      const regex = 'NEED[L]E_T\\w+N';
      const regexFallback = await timePair(
        () => withNode.execute('grep', { ...grepArgs, pattern: regex }, ctx),
        () => runRipgrep(rg, ripgrepArguments(request('content', regex)), tree),
        RUNS,
      );
      result(`${PACKAGE}/grep-node-fallback-content`, fallback.candidateMs, 'ms', {
        baseline: 'rg-cli',
        ratio: fallback.ratio,
      });
      result(`${PACKAGE}/grep-node-fallback-regex`, regexFallback.candidateMs, 'ms', {
        baseline: 'rg-cli',
        ratio: regexFallback.ratio,
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
