import { type ProgressUpdate, type ToolResult, fail, ok } from '@toolplane/core';
import type { RestStreamingConfig } from './config.js';
import { MAX_NESTING, nestsDeeperThan } from './limits.js';
import { own } from './records.js';

/** A line ends at LF, CRLF or a bare CR (as in an event stream). */
const LINE_END = /[\r\n]/g;
const CR = 0x0d;
const LF = 0x0a;

/** Why a stream stopped early. */
export type StreamStop = 'timeout' | 'too-large';

/**
 * Reads a JSON stream (one JSON object per line, the line ending in LF, CRLF or a bare CR,
 * optionally after a prefix such as `data: `),
 * appends token events to the answer, reports progress per token, and finishes at the done
 * event. Lines that are not JSON (`data: [DONE]`, comments, keep-alives) are skipped.
 */
export async function readJsonStream(options: {
  readonly body: AsyncIterable<Uint8Array> & { destroy?(): unknown };
  readonly config: RestStreamingConfig;
  readonly maxBytes: number;
  readonly target: string;
  readonly progress: (update: ProgressUpdate) => void;
  /** Resolves when the stream's own time is up. */
  readonly stopped: () => StreamStop | undefined;
  /** The failure for an error while reading (connection lost, caller cancelled); the partial answer is added to it. */
  readonly failed: (error: unknown) => ToolResult;
}): Promise<ToolResult> {
  const { config, body } = options;
  const prefix = config.linePrefix ?? '';
  let answer = '';
  let tokens = 0;
  let events = 0;
  let bytes = 0;
  let pending = '';
  /** How much of `pending` is known to hold no line end: each chunk is scanned once, not the whole line again. */
  let scanned = 0;
  const decoder = new TextDecoder();

  const handleLine = (raw: string): ToolResult | undefined => {
    let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (prefix) {
      if (!line.startsWith(prefix)) return undefined;
      line = line.slice(prefix.length);
    }
    line = line.trim();
    if (!line.startsWith('{')) return undefined;
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return undefined;
    }
    events++;
    const kind = own(event, config.discriminatorField);
    if (kind === config.doneValue) {
      const final = config.answerField !== undefined ? own(event, config.answerField) : undefined;
      // an answer nesting deeper than anything serialises safely is given as the event's own text
      const text =
        typeof final === 'string'
          ? final
          : final === undefined
            ? answer
            : nestsDeeperThan(final, MAX_NESTING)
              ? line
              : JSON.stringify(final);
      return ok(text, { answer: text, tokens, events });
    }
    if (config.tokenValue !== undefined && kind === config.tokenValue && config.tokenField !== undefined) {
      const piece = own(event, config.tokenField);
      if (typeof piece === 'string') {
        answer += piece;
        tokens++;
        options.progress({ message: `streaming from ${options.target}`, progress: tokens });
      }
    }
    return undefined;
  };

  try {
    for await (const chunk of body) {
      bytes += chunk.length;
      if (bytes > options.maxBytes) {
        body.destroy?.();
        return fail(
          'OUTPUT_TOO_LARGE',
          `the stream from ${options.target} passed ${options.maxBytes} bytes before its done event; raise streaming.maxBytes or ask for less`,
          {
            details: { limit: options.maxBytes, tokens },
            content: answer ? [{ type: 'text', text: answer }] : [],
          },
        );
      }
      pending += decoder.decode(chunk, { stream: true });
      for (;;) {
        LINE_END.lastIndex = scanned;
        const end = LINE_END.exec(pending)?.index ?? -1;
        // no line end yet, or a CR that may be the first half of a CRLF split between chunks
        if (end === -1 || (end === pending.length - 1 && pending.charCodeAt(end) === CR)) {
          scanned = end === -1 ? pending.length : end;
          break;
        }
        const next = pending.charCodeAt(end) === CR && pending.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
        const done = handleLine(pending.slice(0, end));
        pending = pending.slice(next);
        scanned = 0;
        if (done) {
          body.destroy?.();
          return done;
        }
      }
    }
  } catch (error) {
    const stop = options.stopped();
    if (stop === 'timeout') {
      return fail(
        'TIMEOUT',
        `the stream from ${options.target} did not finish within its timeout (${tokens} tokens received)`,
        {
          details: { tokens, events },
          content: answer ? [{ type: 'text', text: answer }] : [],
        },
      );
    }
    const failure = options.failed(error);
    return answer && !failure.ok ? { ...failure, content: [{ type: 'text', text: answer }] } : failure;
  }
  const last = handleLine(pending + decoder.decode());
  if (last) return last;
  return fail(
    'EXECUTION_FAILED',
    `the stream from ${options.target} ended without a "${config.discriminatorField}": "${config.doneValue}" event (${tokens} tokens received); the upstream may have failed mid-answer`,
    { details: { tokens, events }, content: answer ? [{ type: 'text', text: answer }] : [] },
  );
}
