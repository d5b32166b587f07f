import { ToolError } from '@toolplane/core';
import { applyFindings } from './redact.js';
import type { Finding } from './types.js';

/** Redacts chunked output; a secret split across chunks is still redacted. */
export interface StreamScrubber {
  /** Takes the next chunk; returns the redacted text that is now safe to emit (maybe empty). */
  write(chunk: string): string;
  /**
   * Emits everything held back. Call at the end of the stream; calling it mid-stream (to cut
   * latency at a quiet moment) means a secret split exactly at that point may not be recognised.
   */
  flush(): string;
  /** Findings so far, in coordinates of the whole stream (the first 10,000). */
  readonly findings: readonly Finding[];
  /** The same scrubber as a WHATWG `TransformStream` of strings. */
  readable(): TransformStream<string, string>;
}

/** What a stream needs from its scrubber. */
export interface StreamDependencies {
  find(text: string): Finding[];
  marker(kind: string): string;
  /** How many trailing characters to keep until more input arrives. */
  holdBack(): number;
  /** Where a structure a rule needs whole (an open Secret manifest) begins, else the text's length. */
  openFrom(text: string): number;
}

const CONTEXT = 256;
const MAX_OPEN_TOKEN = 16_384;

/**
 * Start of the run of non-space, non-quote characters that ends the buffer, or the buffer
 * length when there is none or it is longer than {@link MAX_OPEN_TOKEN} (then it is not held).
 */
function openTokenStart(buffer: string): number {
  let index = buffer.length;
  const stop = Math.max(0, buffer.length - MAX_OPEN_TOKEN);
  while (index > stop) {
    const code = buffer.charCodeAt(index - 1);
    if (code <= 32 || code === 34 || code === 39 || code === 96) return index;
    index--;
  }
  return index === 0 ? 0 : buffer.length;
}
const MAX_FINDINGS = 10_000;

/**
 * A stream scrubber: it keeps a bounded tail (`holdBack` characters, about the longest token a
 * rule matches; longer while a PEM block or a long token is still open, up to 16 KB) unemitted, plus some already-emitted text as
 * context for key names, and rescans tail + new chunk on every write.
 */
export function createStream(dependencies: StreamDependencies): StreamScrubber {
  let context = '';
  let pending = '';
  let emittedBefore = 0;
  /** Length of `pending` after the last scan. */
  let scanned = 0;
  const findings: Finding[] = [];

  const emit = (final: boolean): string => {
    const hold = final ? 0 : dependencies.holdBack();
    // Rescan only once at least `hold` new characters arrived, and, while a long token is held,
    // once the text grew by half of what the last scan read: tiny chunks cost O(1) each, amortized
    // (a 16 KB token held and rescanned at every 16-character chunk made a base64 run cost about
    // 500 scanned characters per character).
    if (!final && (pending.length <= 2 * hold || pending.length - scanned < Math.max(hold, scanned >> 1)))
      return '';
    // join() builds one flat string; a concatenation (cons string) is slower to scan character by character.
    const buffer = [context, pending].join('');
    const base = context.length;
    const found = dependencies.find(buffer);
    scanned = pending.length;
    let cut = buffer.length - hold;
    if (!final) {
      // A long token still being written (a JWT, a long key) is held whole, up to MAX_OPEN_TOKEN.
      const open = Math.min(openTokenStart(buffer), dependencies.openFrom(buffer));
      if (open < cut) cut = Math.max(base, open);
      for (const finding of found) {
        if (finding.end <= base) continue;
        if ((finding.start < cut && finding.end > cut) || finding.end >= buffer.length)
          cut = Math.max(base, Math.min(cut, finding.start));
      }
    }
    if (cut <= base) return '';
    const local: Finding[] = [];
    for (const finding of found) {
      if (finding.end <= base || finding.start >= cut) continue;
      const start = Math.max(finding.start, base) - base;
      const end = Math.min(finding.end, cut) - base;
      local.push({ ...finding, start, end });
      if (findings.length < MAX_FINDINGS)
        findings.push({ ...finding, start: start + emittedBefore, end: end + emittedBefore });
    }
    // Slices of the (already flattened) buffer are views: no copies of the chunk.
    const emitted = buffer.slice(base, cut);
    pending = buffer.slice(cut);
    scanned = pending.length;
    context = buffer.slice(Math.max(0, cut - CONTEXT), cut);
    emittedBefore += emitted.length;
    return applyFindings(emitted, local, dependencies.marker);
  };

  const stream: StreamScrubber = {
    write(chunk) {
      if (typeof chunk !== 'string')
        throw new ToolError(
          'INVALID_ARGUMENTS',
          `stream write expects a string chunk, got ${chunk === null ? 'null' : typeof chunk}; decode bytes first (TextDecoder with { stream: true })`,
        );
      pending += chunk;
      return emit(false);
    },
    flush() {
      const out = emit(true);
      context = '';
      return out;
    },
    findings,
    readable() {
      return new TransformStream<string, string>({
        transform(chunk, controller) {
          const out = stream.write(chunk);
          if (out) controller.enqueue(out);
        },
        flush(controller) {
          const out = stream.flush();
          if (out) controller.enqueue(out);
        },
      });
    },
  };
  return stream;
}
