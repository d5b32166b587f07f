import {
  type ContentBlock,
  type Middleware,
  type ToolCall,
  type ToolResult,
  contentText,
  fail,
  stableStringify,
  type ToolContext,
} from '@toolplane/core';
import type { CallState } from '../call/call-state.js';
import type { OutputStore, StoredOutput } from '../output/output-store.js';
import { headOf, textBytes } from '../output/text-bytes.js';
import { failureFrom, isToolError, thrownMessage } from '../call/thrown.js';

/** Limits on what a single call may hand to the model. */
export interface OutputLimits {
  /** Bytes of text the model gets before the rest is stored (default 64 KiB). */
  readonly maxBytes?: number;
  /** Estimated tokens (bytes / 4) the model gets before the rest is stored. */
  readonly maxTokens?: number;
  /**
   * Media (image/audio data, resource blobs) a result may carry in all; blocks beyond it are
   * replaced by a note (default 5 MiB).
   */
  readonly maxMediaBytes?: number;
  /** Outputs over this are refused with `OUTPUT_TOO_LARGE` instead of stored (default 256 MiB). */
  readonly maxStoredBytes?: number;
}

const MEDIA_NOTE_LIMIT = 5 * 1024 * 1024;

/**
 * Caps each result: text beyond the cap is stored whole (the store sees it after scrubbing)
 * and replaced by its head plus a handle for the `tool_output` tool.
 */
export function sizeCapMiddleware(
  limits: OutputLimits,
  deps: {
    store: OutputStore;
    stateOf: (ctx: ToolContext) => CallState | undefined;
    exempt: ReadonlySet<string>;
  },
): Middleware {
  const maxBytes = Math.min(limits.maxBytes ?? 64 * 1024, (limits.maxTokens ?? Number.POSITIVE_INFINITY) * 4);
  const maxMedia = limits.maxMediaBytes ?? MEDIA_NOTE_LIMIT;
  const maxStored = limits.maxStoredBytes ?? 256 * 1024 * 1024;
  // which limit is the binding one never changes, so the reported reason is decided once
  const reason: 'bytes' | 'tokens' =
    limits.maxTokens !== undefined && limits.maxTokens * 4 < (limits.maxBytes ?? 64 * 1024)
      ? 'tokens'
      : 'bytes';
  return {
    name: 'size-cap',
    phase: 'output',
    handle(call, next) {
      // a then() rather than an async function: most results pass unchanged, at one promise step
      return next(call).then((given) => {
        const result = given.ok ? given : withShortMessage(given, maxBytes);
        // the structured part is serialized once, here, and its verdict handed to cap()
        const fits = structuredFits(result, maxBytes);
        if (typeof fits === 'string') {
          return fail(
            'INVALID_RESULT',
            `${call.tool.name} returned structured output that is not JSON data (${fits}); this is a bug in the provider, not in the arguments`,
          );
        }
        const structuredTooBig = !fits;
        return !structuredTooBig && textFitsQuickly(result) ? result : cap(call, result, structuredTooBig);
      });
    },
  };

  /** Text that cannot exceed the cap even at 3 bytes per UTF-16 unit, and no large media. */
  function textFitsQuickly(result: ToolResult): boolean {
    const content = result.content;
    if (!content || content.length === 0) return true;
    let quickSize = 0;
    let media = 0;
    for (const block of content) {
      if (block.type === 'text') quickSize += block.text.length;
      else media += mediaBytes(block);
    }
    return quickSize * 3 <= maxBytes && media <= maxMedia;
  }

  async function cap(call: ToolCall, result: ToolResult, structuredTooBig: boolean): Promise<ToolResult> {
    const content = result.content ?? [];
    const others: ContentBlock[] = [];
    // media in all, not per block: 40 images of 1 MB are as much as one of 40 MB
    let mediaLeft = maxMedia;
    let mediaDropped = 0;
    for (const block of content) {
      if (block.type === 'text') continue;
      const size = mediaBytes(block);
      if (size > mediaLeft) mediaDropped++;
      else {
        mediaLeft -= size;
        others.push(block);
      }
    }
    const text = contentText(content.filter((block) => block.type === 'text'));
    const bytes = textBytes(text);
    if (bytes <= maxBytes && mediaDropped === 0 && !structuredTooBig) return result;
    const notes: ContentBlock[] = [];
    if (mediaDropped > 0) {
      const blocks = mediaDropped === 1 ? 'a media block' : `${mediaDropped} media blocks`;
      notes.push({
        type: 'text',
        text: `[${blocks} omitted: a result carries at most ${maxMedia} bytes of media]`,
      });
    }
    let textBlocks: ContentBlock[] = content.filter((block) => block.type === 'text');
    const state = deps.stateOf(call.ctx);
    if (bytes > maxBytes) {
      if (deps.exempt.has(call.tool.name)) {
        textBlocks = [
          {
            type: 'text',
            text: `${headOf(text, maxBytes)}\n[truncated at ${maxBytes} bytes: ask for a smaller slice]`,
          },
        ];
      } else {
        if (bytes > maxStored) {
          return fail(
            'OUTPUT_TOO_LARGE',
            `${call.tool.name} produced ${formatBytes(bytes)}, more than the ${formatBytes(maxStored)} the orchestrator keeps; ask for less (a narrower query, a filter, offset/limit)`,
            { details: { bytes, maxStoredBytes: maxStored } },
          );
        }
        let stored: StoredOutput;
        try {
          stored = await deps.store.put(call.ctx.session.id, text, bytes);
        } catch (error) {
          // the store closed: a failure with its code, not a pipeline failure
          if (isToolError(error)) return failureFrom(error);
          throw error;
        }
        const head = headOf(text, Math.max(256, maxBytes - 512));
        const minutes = Math.round(deps.store.ttlMs / 60_000);
        const note =
          `\n[output truncated: showing ${formatBytes(textBytes(head))} of ${formatBytes(bytes)} (${stored.lines} lines). ` +
          `The whole output is stored as handle "${stored.handle}" for ${minutes} min: call tool_output with ` +
          `{"handle":"${stored.handle}","mode":"lines","offset":N,"limit":N}, or mode "grep" with a pattern, ` +
          `"bytes" with offset/limit, or "jsonpath" with a path for JSON output]`;
        textBlocks = [{ type: 'text', text: head + note }];
        if (state) {
          state.truncated = {
            handle: stored.handle,
            reason,
            bytes,
            lines: stored.lines,
            tokens: Math.ceil(bytes / 4),
          };
        }
      }
    }
    const capped = [...textBlocks, ...others, ...notes];
    if (result.ok) {
      if (structuredTooBig) {
        const { structured: _dropped, ...rest } = result;
        return {
          ...rest,
          content: [
            ...capped,
            { type: 'text', text: '[structured data omitted: too large; the text above holds it]' },
          ],
        };
      }
      return { ...result, content: capped };
    }
    return { ...result, content: capped } satisfies ToolResult;
  }
}

/** Whether the structured output fits, or why it cannot be serialized (a cycle, a BigInt). */
function structuredFits(result: ToolResult, maxBytes: number): boolean | string {
  if (!result.ok || result.structured === undefined) return true;
  const structured = result.structured;
  if (typeof structured !== 'object' || structured === null) return true;
  let text: string;
  try {
    text = stableStringify(structured);
  } catch (error) {
    return error instanceof RangeError ? 'it nests too deeply or refers to itself' : thrownMessage(error);
  }
  return textBytes(text) <= maxBytes;
}

/** The size of a block's media (image or audio data, a resource's blob); 0 for other blocks. */
function mediaBytes(block: ContentBlock): number {
  if (block.type === 'image' || block.type === 'audio') return block.data.length;
  if (block.type === 'resource') return block.resource.blob?.length ?? 0;
  return 0;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * A failure whose message fits `maxBytes` of UTF-8: a provider may fail with a whole error page
 * or log as its message, which would reach the model whole (only content is stored and capped).
 * Its `details` go on only as JSON data within `maxBytes`: details nested 100,000 deep (from
 * `JSON.parse`) made every caller that sends the result on as JSON throw, and a log in them went
 * out whole. Dropped details are named at the end of the message.
 */
function withShortMessage(result: ToolResult & { ok: false }, maxBytes: number): ToolResult {
  const note = detailsProblem(result.error.details, maxBytes);
  const { message } = result.error;
  const room = note ? Math.max(0, maxBytes - note.length - 1) : maxBytes;
  if (!note && message.length * 3 <= room) return result;
  const bytes = textBytes(message);
  if (!note && bytes <= room) return result;
  const short =
    bytes <= room ? message : `${headOf(message, room)}... [error message cut at ${room} bytes of ${bytes}]`;
  if (!note) return { ...result, error: { ...result.error, message: short } };
  const { details: _dropped, ...error } = result.error;
  return { ...result, error: { ...error, message: `${short} ${note}` } };
}

/** Why a failure's details cannot go on (not JSON data, or over the cap), or undefined. */
function detailsProblem(details: unknown, maxBytes: number): string | undefined {
  if (details === undefined) return undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(details);
  } catch (error) {
    if (error instanceof RangeError && /call stack/i.test(error.message))
      return '[details dropped: not JSON data (they nest too deeply)]';
    if (error instanceof RangeError) return '[details dropped: too large to be written]';
    return `[details dropped: not JSON data (${thrownMessage(error).split('\n')[0]?.slice(0, 200)})]`;
  }
  const bytes = text === undefined ? 0 : textBytes(text);
  return bytes <= maxBytes ? undefined : `[details dropped: ${bytes} bytes, over the ${maxBytes}-byte cap]`;
}
