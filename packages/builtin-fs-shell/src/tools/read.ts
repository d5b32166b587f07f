import { type Tool, ToolError, type ToolResult, defineTool, fail, ok } from '@toolplane/core';
import { z } from 'zod';
import { openForRead, recordKey, statTarget } from '../files/file-access.js';
import { versionOf } from '../files/line-index.js';
import { readSlice, type Slice } from '../files/read-slice.js';
import { readUtf16Slice } from '../files/read-utf16.js';
import { BACKWARD_MAX_BYTES } from '../files/skip-lines.js';
import { formatBytes, isModelImage, sniff } from '../files/sniff.js';
import type { ResolvedTarget } from '../workspace/workspace.js';
import type { ToolDeps } from './deps.js';

const input = z.object({
  path: z.string().describe('File path, relative to the workspace (or absolute inside it)'),
  offset: z.number().int().min(1).optional().describe('First line to read, 1-based (default 1)'),
  limit: z.number().int().min(1).optional().describe('Number of lines to read (default 2000)'),
});

const SNIFF_BYTES = 8192;

/** Reads of text files at least this large start the counting threads (see `CountThreads.warm`). */
export const WARM_THREADS_MIN_BYTES = 32 * 1024 * 1024;

function numbered(slice: Slice): string {
  const width = String(slice.firstLine + slice.lines.length).length;
  return slice.lines
    .map((line, i) => `${String(slice.firstLine + i).padStart(Math.max(6, width))}\t${line}`)
    .join('\n');
}

function footer(slice: Slice, display: string): string {
  const last = slice.firstLine + slice.lines.length - 1;
  const notes: string[] = [];
  if (slice.longLines > 0) notes.push(`${slice.longLines} long line(s) were cut`);
  if (slice.more) {
    const why = slice.cappedByBytes ? 'the output byte limit was reached; ' : '';
    const of = slice.totalLines === undefined ? '' : ` of ${slice.totalLines}`;
    notes.push(`${why}${display} continues after line ${last}${of}; pass offset=${last + 1} to read more`);
  } else if (slice.totalLines !== undefined) {
    notes.push(`end of file (${slice.totalLines} lines)`);
  }
  return notes.length ? `\n\n(${notes.join('; ')})` : '';
}

function sliceText(lines: string[], offset: number, limit: number, maxLineLength: number): Slice {
  let longLines = 0;
  const selected = lines.slice(offset - 1, offset - 1 + limit).map((line) => {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.length <= maxLineLength) return text;
    longLines++;
    return `${text.slice(0, maxLineLength)} [line truncated]`;
  });
  const more = offset - 1 + limit < lines.length;
  return {
    lines: selected,
    firstLine: offset,
    more,
    cappedByBytes: false,
    longLines,
    // The whole file is in memory: its line count is known either way.
    totalLines: lines.length,
  };
}

async function readMounted(
  deps: ToolDeps,
  target: ResolvedTarget & { kind: 'mount' },
  offset: number,
  limit: number,
  signal: AbortSignal,
): Promise<Slice> {
  const data = await target.mount.fileSystem.readFile(target.innerPath, signal);
  const kind = sniff(data.subarray(0, SNIFF_BYTES));
  if (kind.binary) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `${target.display} is ${kind.description} (${formatBytes(data.length)}); read shows text files only`,
    );
  }
  let text = Buffer.from(data).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return sliceText(lines, offset, limit, deps.limits.readMaxLineLength);
}

/** The `read` tool. */
export function createReadTool(deps: ToolDeps): Tool {
  return defineTool({
    name: 'read',
    title: 'Read file',
    description:
      'Read a text file with line numbers (offset/limit for large files); images come back as images. Read a file before you write or edit it.',
    input,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    sideEffect: 'read',
    groups: ['fs'],
    async execute(args, ctx): Promise<ToolResult> {
      const offset = args.offset ?? 1;
      const limit = args.limit ?? deps.limits.readDefaultLines;
      const target = await deps.workspace.resolve(args.path);
      const session = deps.sessions.get(ctx.session.id);
      if (target.kind === 'mount') {
        const info = await statTarget(target);
        if (!info)
          return fail('INVALID_ARGUMENTS', `${target.display} does not exist; check the path with list`);
        const slice = await readMounted(deps, target, offset, limit, ctx.signal);
        if (slice.lines.length === 0 && offset > 1) {
          return fail(
            'INVALID_ARGUMENTS',
            `offset ${offset} is past the end of ${target.display} (${slice.totalLines ?? 0} lines)`,
          );
        }
        session.reads.remember(recordKey(target), info);
        return ok(numbered(slice) + footer(slice, target.display), {
          path: target.display,
          ...sliceFacts(slice),
        });
      }
      if (!target.exists)
        return fail(
          'INVALID_ARGUMENTS',
          `${target.display} does not exist; check the path with list or glob`,
        );
      const handle = await openForRead(deps.workspace, target.path, target.display);
      try {
        const info = await handle.stat();
        if (info.isDirectory())
          return fail('INVALID_ARGUMENTS', `${target.display} is a directory; use list to see its entries`);
        if (!info.isFile()) return fail('INVALID_ARGUMENTS', `${target.display} is not a regular file`);
        const sample = Buffer.alloc(Math.min(SNIFF_BYTES, info.size));
        if (sample.length > 0) await handle.read(sample, 0, sample.length, 0);
        const kind = sniff(sample);
        if (kind.binary && isModelImage(kind.mimeType)) {
          if (info.size > deps.limits.readMaxImageBytes) {
            return fail(
              'INVALID_ARGUMENTS',
              `${target.display} is a ${kind.description} of ${formatBytes(info.size)}, over the ${formatBytes(deps.limits.readMaxImageBytes)} image limit`,
            );
          }
          const data = await handle.readFile();
          session.reads.remember(recordKey(target), info);
          return ok([
            { type: 'text', text: `${target.display}: ${kind.description}, ${formatBytes(info.size)}` },
            { type: 'image', data: data.toString('base64'), mimeType: kind.mimeType as string },
          ]);
        }
        if (kind.binary) {
          return fail(
            'INVALID_ARGUMENTS',
            `${target.display} is ${kind.description} (${kind.mimeType ?? 'application/octet-stream'}, ${formatBytes(info.size)}); read shows text files only`,
            {
              details: { mimeType: kind.mimeType ?? 'application/octet-stream', size: info.size },
            },
          );
        }
        if (kind.description === 'UTF-16 text') {
          // Line positions in UTF-16 are not byte scans for "\n": decoded as read, from the start.
          const slice = await readUtf16Slice({
            handle,
            encoding: sample[0] === 0xff ? 'utf16le' : 'utf16be',
            size: info.size,
            offset,
            limit,
            maxBytes: deps.limits.readMaxBytes,
            maxLineLength: deps.limits.readMaxLineLength,
            signal: ctx.signal,
          });
          if (slice.lines.length === 0 && offset > 1) {
            return fail(
              'INVALID_ARGUMENTS',
              `offset ${offset} is past the end of ${target.display} (${slice.totalLines ?? 0} lines); pass a smaller offset`,
            );
          }
          session.reads.remember(recordKey(target), info);
          return ok(numbered(slice) + footer(slice, target.display), {
            path: target.display,
            ...sliceFacts(slice),
          });
        }
        const version = versionOf(info);
        // A model that opened a large file usually reads deeper next, and a deep read with no
        // line index counts on the threads: start them now (tens of milliseconds), not then.
        if (info.size >= WARM_THREADS_MIN_BYTES) deps.countThreads?.warm();
        // A background build of this file's index that has not reached the line yet will soon:
        // reading from its checkpoints beats scanning the same bytes beside it, unless a search
        // left an anchor next to the line.
        if (!deps.lineIndex.anchored(target.path, version, offset, BACKWARD_MAX_BYTES))
          await deps.indexAhead.waitFor(target.path, version, offset, ctx.signal);
        const slice = await readSlice({
          handle,
          key: target.path,
          version,
          offset,
          limit,
          maxBytes: deps.limits.readMaxBytes,
          maxLineLength: deps.limits.readMaxLineLength,
          index: deps.lineIndex,
          scanners: deps.scanners,
          threads: deps.countThreads,
          signal: ctx.signal,
        });
        if (slice.more) {
          // The model usually reads deeper next: have the index ready by then.
          deps.indexAhead.request(target.path, version, () =>
            openForRead(deps.workspace, target.path, target.display),
          );
        }
        if (slice.lines.length === 0 && info.size > 0) {
          return fail(
            'INVALID_ARGUMENTS',
            `offset ${offset} is past the end of ${target.display} (${slice.totalLines ?? 0} lines); pass a smaller offset`,
          );
        }
        session.reads.remember(recordKey(target), info);
        const body =
          info.size === 0 ? `(${target.display} is empty)` : numbered(slice) + footer(slice, target.display);
        return ok(body, { path: target.display, ...sliceFacts(slice) });
      } finally {
        await handle.close();
      }
    },
  });
}

function sliceFacts(slice: Slice): Record<string, unknown> {
  return {
    firstLine: slice.firstLine,
    lines: slice.lines.length,
    more: slice.more,
    ...(slice.totalLines === undefined ? {} : { totalLines: slice.totalLines }),
  };
}
