import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { ToolError } from '@toolplane/core';
import { formatBytes } from '../files/sniff.js';
import { RipgrepWaitedOnFifo, watchFifoOpenWait } from './fifo-wait.js';
import { RIPGREP_MEMORY_BYTES } from './options.js';
import { type FileHits, type SearchOutcome, byPath } from './results.js';
import type { SearchRequest } from './search-request.js';

/**
 * The ripgrep command line for a request. Ignore sources are pinned down to what the Node
 * engine reproduces: `.gitignore` files at and below the search root, nothing else (no
 * `.ignore`, `.rgignore`, global excludes, parent directories or user config).
 */
export function ripgrepArguments(request: SearchRequest): string[] {
  if (request.rootIsFile) return [...fileArguments(request), ...modeArguments(request), '--', '.'];
  const args = [
    ...COMMON_ARGUMENTS,
    '--no-ignore-dot',
    '--no-ignore-exclude',
    '--no-ignore-global',
    '--no-ignore-parent',
    '--no-require-git',
  ];
  if (!request.respectGitignore) args.push('--no-ignore');
  for (const directory of request.skipDirectories) args.push('--glob', `!${directory}`);
  for (const glob of request.globs) args.push('--glob', glob);
  if (request.typeGlobs) {
    for (const glob of request.typeGlobs) args.push('--type-add', `toolplane:${glob}`);
    args.push('--type', 'toolplane');
  }
  args.push(...modeArguments(request), '--', '.');
  return args;
}

const COMMON_ARGUMENTS = ['--no-config', '--hidden', '--no-messages', '--color=never', '--null'];

/**
 * A single file, searched as the Node engine does: whatever its name, hidden or ignored, with
 * no glob or type filter, and cut at a NUL the way a walk cuts one. Named on the command line,
 * ripgrep would treat a NUL differently, so it walks the file's directory one level deep with
 * a glob that only the file's own name matches.
 */
function fileArguments(request: SearchRequest): string[] {
  return [
    ...COMMON_ARGUMENTS,
    '--no-ignore',
    '--max-depth',
    '1',
    '--glob',
    escapeGlob(basename(request.root)),
  ];
}

/** A file name as a glob that matches only itself. */
export function escapeGlob(name: string): string {
  return name.replace(/[\\*?[\]{}!]/g, (character) => `\\${character}`);
}

function modeArguments(request: SearchRequest): string[] {
  const args: string[] = [];
  if (request.pattern.ignoreCase) args.push('--ignore-case');
  if (request.mode === 'files_with_matches') args.push('--files-with-matches');
  else if (request.mode === 'count') args.push('--count', '--with-filename');
  else {
    args.push('--line-number', '--byte-offset', '--with-filename', '--no-heading');
    if (request.before > 0) args.push('--before-context', String(request.before));
    if (request.after > 0) args.push('--after-context', String(request.after));
  }
  args.push('--regexp', request.pattern.source);
  return args;
}

/**
 * ripgrep's notes on a file it stopped reading at a NUL byte, printed with no `--null` separator:
 * a named file ("binary file matches") or one found in a directory after it printed matches.
 */
const BINARY_NOTE =
  /: (?:binary file matches|WARNING: stopped searching binary file after match) \(found "\\0" byte around offset \d+\)$/;

function stripDot(path: string): string {
  return path.startsWith('./') ? path.slice(2) : path;
}

/**
 * A path whose name held line breaks, joined from its rows; only the last row when that joined
 * path is not there (the rows before were a note of ripgrep's this parser does not know).
 */
function withHead(head: string | undefined, tail: string, request: SearchRequest): string {
  if (head === undefined) return tail;
  const joined = `${head}\n${tail}`;
  const directory = request.rootIsFile ? dirname(request.root) : request.root;
  return lstatSync(join(directory, joined), { throwIfNoEntry: false }) ? joined : tail;
}

/** Parses ripgrep's `--null` output into per-file hits. */
export function parseRipgrepOutput(output: string, request: SearchRequest): FileHits[] {
  const byFile = new Map<string, FileHits>();
  const hitsFor = (path: string): FileHits => {
    let hits = byFile.get(path);
    if (!hits) {
      hits = { path, lines: [], count: 0 };
      byFile.set(path, hits);
    }
    return hits;
  };
  if (request.mode === 'files_with_matches') {
    for (const path of output.split('\0')) if (path.length > 0) hitsFor(stripDot(path.replace(/^\n/, '')));
    return [...byFile.values()];
  }
  // A row without NUL is a "--" group separator, a binary-file note, the final empty line, or
  // the part of a path before a line break in its name: kept until the row that ends the path.
  let pathHead: string | undefined;
  for (const row of output.split('\n')) {
    const nul = row.indexOf('\0');
    if (nul === -1) {
      const note = row === '--' || row === '' || BINARY_NOTE.test(row);
      pathHead = note ? undefined : pathHead === undefined ? row : `${pathHead}\n${row}`;
      continue;
    }
    const path = stripDot(withHead(pathHead, row.slice(0, nul), request));
    pathHead = undefined;
    const rest = row.slice(nul + 1);
    if (request.mode === 'count') {
      const hits = hitsFor(path);
      byFile.set(path, { ...hits, count: Number(rest) });
      continue;
    }
    // "LINE:OFFSET:text" for a match, "LINE-OFFSET-text" for a context line.
    const numberEnd = rest.search(/[:-]/);
    const separator = rest[numberEnd] as string;
    const offsetEnd = rest.indexOf(separator, numberEnd + 1);
    const line = Number(rest.slice(0, numberEnd));
    const offset = Number(rest.slice(numberEnd + 1, offsetEnd));
    const match = separator === ':';
    const hits = hitsFor(path);
    hits.lines.push({ line, match, text: rest.slice(offsetEnd + 1), offset });
    if (match) byFile.set(path, { ...hits, count: hits.count + 1 });
  }
  return [...byFile.values()];
}

/**
 * The command line that starts ripgrep: through `/bin/sh` with `ulimit -d` when its memory is
 * capped (a cap the host's hard limit refuses is skipped, so rg still runs).
 */
function ripgrepCommand(
  binary: string,
  args: readonly string[],
  memoryBytes: number | false,
): [string, string[]] {
  if (memoryBytes === false) return [binary, [...args]];
  const kibibytes = String(Math.max(1, Math.floor(memoryBytes / 1024)));
  return [
    '/bin/sh',
    ['-c', 'ulimit -d "$1" 2>/dev/null; shift; exec "$@"', 'sh', kibibytes, binary, ...args],
  ];
}

/** Runs ripgrep for a request (root must be a directory). */
export function searchWithRipgrep(
  binary: string,
  request: SearchRequest,
  memoryBytes: number | false = RIPGREP_MEMORY_BYTES,
): Promise<SearchOutcome> {
  return new Promise((resolve, reject) => {
    const [command, args] = ripgrepCommand(binary, ripgrepArguments(request), memoryBytes);
    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      child = spawn(command, args, {
        cwd: request.rootIsFile ? dirname(request.root) : request.root,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      });
    } catch (error) {
      // Node throws some failures (a command line the kernel refuses) instead of emitting them.
      reject(spawnFailure(error, args));
      return;
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    let lines = 0;
    let incomplete = false;
    const stderr: Buffer[] = [];
    const hardByteCap = 64 * 1024 * 1024;
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    let waitedOnFifo = false;
    const stopWatch =
      child.pid === undefined
        ? () => {}
        : watchFifoOpenWait(child.pid, () => {
            waitedOnFifo = true;
            child.kill('SIGKILL');
          });
    request.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      if (
        !incomplete &&
        (bytes > hardByteCap || lines > request.hardMatchCap * (1 + request.before + request.after))
      ) {
        incomplete = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 64) stderr.push(chunk);
    });
    child.once('error', (error) => {
      stopWatch();
      request.signal?.removeEventListener('abort', onAbort);
      reject(spawnFailure(error, args));
    });
    child.once('close', (code, signal) => {
      stopWatch();
      request.signal?.removeEventListener('abort', onAbort);
      if (request.signal?.aborted) {
        reject(request.signal.reason);
        return;
      }
      if (waitedOnFifo) {
        reject(new RipgrepWaitedOnFifo());
        return;
      }
      const message = Buffer.concat(stderr).toString('utf8').trim();
      if (signal !== null && !incomplete) {
        // Not a result: what it printed before it died is only part of one.
        reject(ripgrepDied(signal, message, memoryBytes));
        return;
      }
      if (code === 2 && !incomplete && message.length > 0) {
        reject(new ToolError('INVALID_ARGUMENTS', `ripgrep refused the search: ${message || 'exit code 2'}`));
        return;
      }
      let output = Buffer.concat(chunks).toString('utf8');
      // A killed run may end in the middle of a row.
      if (incomplete) output = output.slice(0, output.lastIndexOf('\n') + 1);
      const files = parseRipgrepOutput(output, request).sort(byPath);
      resolve({ files, incomplete, engine: 'ripgrep' });
    });
  });
}

/** The error for a ripgrep run that ended on a signal it was not sent by the tool. */
function ripgrepDied(signal: string, message: string, memoryBytes: number | false): ToolError {
  const outOfMemory = /memory allocation of \d+ bytes failed/.test(message);
  const detail = outOfMemory
    ? `it ran out of its memory allowance (${memoryBytes === false ? 'none set' : formatBytes(memoryBytes)}, grep.ripgrepMemoryBytes): an ignore file that never ends (a .gitignore linked to a device) or a very long line; find it, or leave it out with a glob`
    : `it ended on ${signal}${message === '' ? '' : `: ${message.slice(0, 200)}`}`;
  return new ToolError('EXECUTION_FAILED', `ripgrep did not finish the search: ${detail}`);
}

/** What a failure to start ripgrep means: its command line too long (`E2BIG`) is the caller's. */
function spawnFailure(error: unknown, args: readonly string[]): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'E2BIG') return error;
  const longest = Math.max(...args.map((arg) => Buffer.byteLength(arg, 'utf8')));
  return new ToolError(
    'INVALID_ARGUMENTS',
    `the pattern and glob filters are too long to pass to ripgrep (the longest argument is ${formatBytes(longest)}; Linux takes at most 128 KiB per argument and about 2 MiB in all): shorten them`,
  );
}
