import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { type Tool, type ToolResult, fail, ok } from '@toolplane/core';
import type { OutputStore, StoredOutput } from './output-store.js';
import { headOf } from './text-bytes.js';
import { thrownMessage } from '../call/thrown.js';

const MAX_LINE_FOR_REGEX = 10_000;
const TRUNCATED = '\n[truncated: ask for a smaller slice]';
/**
 * Longest grep pattern or JSONPath: jsonpath-plus reads a path in more than linear time
 * (a 20,000-character path of dots took 6 s) and V8 compiles a pattern on this thread.
 */
const MAX_EXPRESSION_LENGTH = 2000;

/** The `tool_output` tool: reads slices of, greps in, or queries outputs stored by the size cap. */
export function createToolOutputTool(store: OutputStore, maxBytes: number): Tool {
  return {
    spec: {
      name: 'tool_output',
      description:
        'Reads an output that was too large to show whole, by the handle given in the truncation note. ' +
        'mode "lines" (offset = first line, 1-based; limit = line count), "bytes" (offset/limit in bytes), ' +
        '"grep" (pattern = regular expression, case-insensitive by default; context = lines around each match), ' +
        '"jsonpath" (path = JSONPath expression such as $.items[0].name, for JSON output).',
      inputSchema: {
        type: 'object',
        properties: {
          handle: { type: 'string', description: 'The handle from the truncation note.' },
          mode: { type: 'string', enum: ['lines', 'bytes', 'grep', 'jsonpath'], default: 'lines' },
          offset: {
            type: 'integer',
            minimum: 0,
            description: 'First line (1-based) or first byte (0-based).',
          },
          limit: { type: 'integer', minimum: 1, description: 'Lines or bytes to read.' },
          pattern: {
            type: 'string',
            maxLength: MAX_EXPRESSION_LENGTH,
            description: 'Regular expression for mode "grep".',
          },
          caseSensitive: { type: 'boolean', default: false },
          context: { type: 'integer', minimum: 0, maximum: 10, default: 0 },
          path: {
            type: 'string',
            maxLength: MAX_EXPRESSION_LENGTH,
            description: 'JSONPath expression for mode "jsonpath".',
          },
        },
        required: ['handle'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, title: 'Read stored tool output' },
      sideEffect: 'read',
      groups: ['toolplane'],
    },
    async execute(args, ctx): Promise<ToolResult> {
      const handle = String(args.handle ?? '');
      const stored = store.get(handle, ctx.session.id);
      if (!stored) {
        return fail(
          'INVALID_ARGUMENTS',
          `no stored output "${handle}" for this session: it expired (kept ${Math.round(store.ttlMs / 60_000)} min) or the handle is wrong; run the original tool again`,
        );
      }
      const mode = String(args.mode ?? 'lines');
      const pastEnd = offsetPastEnd(stored, mode, num(args.offset, mode === 'bytes' ? 0 : 1));
      if (pastEnd) return fail('INVALID_ARGUMENTS', pastEnd);
      try {
        let text: string;
        let cut = false;
        if (mode === 'bytes')
          text = await readBytes(
            stored,
            num(args.offset, 0),
            num(args.limit, Math.floor(maxBytes / 2)),
            sliceBudget(maxBytes),
          );
        else if (mode === 'grep') {
          if (typeof args.pattern !== 'string' || args.pattern.length === 0) {
            return fail('INVALID_ARGUMENTS', 'mode "grep" needs a "pattern" (a regular expression)');
          }
          const flags = args.caseSensitive === true ? '' : 'i';
          try {
            new RegExp(args.pattern, flags);
          } catch (error) {
            return fail(
              'INVALID_ARGUMENTS',
              `pattern is not a valid regular expression: ${thrownMessage(error)}`,
            );
          }
          const answer = await store.workers.run(
            {
              kind: 'grep',
              file: stored.file,
              pattern: args.pattern,
              flags,
              context: num(args.context, 0),
              maxMatches: num(args.limit, 100),
              maxLine: MAX_LINE_FOR_REGEX,
              lines: stored.lines,
            },
            ctx.signal,
          );
          text = 'text' in answer ? answer.text : '';
        } else if (mode === 'jsonpath') {
          if (typeof args.path !== 'string')
            return fail('INVALID_ARGUMENTS', 'mode "jsonpath" needs a "path" such as $.items[*].id');
          // parsed and queried in a worker: a stored output may be hundreds of megabytes of JSON
          const answer = await store.workers.run(
            { kind: 'jsonpath', file: stored.file, path: args.path, maxChars: maxBytes + 1 },
            ctx.signal,
          );
          if ('problem' in answer) {
            if (answer.problem === 'not-json')
              return fail('INVALID_ARGUMENTS', 'this output is not JSON; use mode "lines" or "grep"');
            if (answer.problem !== 'path')
              return fail('INVALID_ARGUMENTS', jsonPathTrouble(answer, args.path));
            return fail(
              'INVALID_ARGUMENTS',
              `path ${JSON.stringify(args.path.slice(0, 200))} cannot be used (${answer.message}): filter and script expressions ([?(...)], [(...)]) are not supported; use a plain path such as $.items[*].id and mode "grep" to search`,
            );
          }
          text = answer.text;
          cut = answer.cut === true;
        } else
          text = await readLines(
            stored,
            Math.max(1, num(args.offset, 1)),
            num(args.limit, 200),
            sliceBudget(maxBytes),
            ctx.signal,
          );
        // the note fits within maxBytes too: the size cap would cut it off again
        const head = headOf(text, Math.max(1, maxBytes - TRUNCATED.length));
        return ok(head === text && !cut ? text : `${head}${TRUNCATED}`);
      } catch (error) {
        return fail('EXECUTION_FAILED', `reading stored output ${handle} failed: ${thrownMessage(error)}`);
      }
    },
  };
}

/** What to do when the JSON nests too deep for a query, or its answer is too long to write. */
function jsonPathTrouble(answer: { problem: 'deep' } | { problem: 'large' }, path: string): string {
  const shown = JSON.stringify(path.slice(0, 200));
  return answer.problem === 'large'
    ? `the answer of path ${shown} is too large to be written; ask for a smaller part, such as $.items[0:100]`
    : `this output nests deeper than 1000 levels, too deep for path ${shown} to search it (a recursive descent ".." follows every level); use a path without "..", or mode "grep" or "bytes"`;
}

/** Why a lines or bytes offset cannot be read (it is past the end), or undefined. */
function offsetPastEnd(stored: StoredOutput, mode: string, offset: number): string | undefined {
  if (mode === 'lines' && offset > stored.lines)
    return `offset ${offset} is past the end: the output has ${stored.lines} lines; use an offset from 1 to ${stored.lines}`;
  if (mode === 'bytes' && offset >= stored.bytes)
    return `offset ${offset} is past the end: the output has ${stored.bytes} bytes; use an offset from 0 to ${Math.max(0, stored.bytes - 1)}`;
  return undefined;
}

function num(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/**
 * Bytes of a lines or bytes slice, leaving room for its header and note within `maxBytes`: a
 * slice is read only as far as the answer can show (before: a `limit` of a billion read the
 * whole stored output, up to 256 MiB, and the header named lines the answer never showed).
 */
function sliceBudget(maxBytes: number): number {
  return Math.max(1, maxBytes - 300);
}

async function readBytes(
  stored: StoredOutput,
  offset: number,
  limit: number,
  budget: number,
): Promise<string> {
  const file = await open(stored.file, 'r');
  try {
    const wanted = Math.max(0, Math.min(limit, stored.bytes - offset));
    const buffer = Buffer.alloc(Math.min(wanted, budget));
    const { bytesRead } = await file.read(buffer, 0, buffer.length, offset);
    const end = offset + bytesRead;
    const more =
      bytesRead < wanted
        ? `\n[bytes ${end}-${offset + wanted} not shown: an answer holds at most ${budget} bytes; call again with offset ${end}]`
        : '';
    return `[bytes ${offset}-${end} of ${stored.bytes}]\n${buffer.subarray(0, bytesRead).toString('utf8')}${more}`;
  } finally {
    await file.close();
  }
}

async function readLines(
  stored: StoredOutput,
  first: number,
  limit: number,
  budget: number,
  signal: AbortSignal,
): Promise<string> {
  const lines: string[] = [];
  let number = 0;
  let used = 0;
  let note = '';
  const input = createReadStream(stored.file, { encoding: 'utf8', signal });
  const reader = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of reader) {
      number++;
      if (number < first) continue;
      const size = Buffer.byteLength(line) + 1;
      if (used + size > budget) {
        if (lines.length > 0) {
          note = `\n[lines ${number}-${Math.min(first + limit - 1, stored.lines)} not shown: an answer holds at most ${budget} bytes; call again with offset ${number}]`;
        } else {
          lines.push(headOf(line, budget));
          note = `\n[line ${number} is cut at ${budget} bytes: read the rest with mode "bytes"]`;
        }
        break;
      }
      lines.push(line);
      used += size;
      if (lines.length >= limit) break;
    }
  } finally {
    reader.close();
    // closing the reader leaves its stream open: a read that stopped early kept its file
    // descriptor (and the deleted file's disk space) until the process ended
    input.destroy();
  }
  const last = first + lines.length - 1;
  return `[lines ${first}-${last} of ${stored.lines}]\n${lines.join('\n')}${note}`;
}
