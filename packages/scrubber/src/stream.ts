import { ToolError } from '@toolplane/core';
import { applyFindings } from './redact.js';
import type { Carry, Finding } from './types.js';

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
  /**
   * The same scrubber as a WHATWG `TransformStream` of strings. Aborting its writable side or
   * cancelling its readable side drops what the scrubber holds; `write` then throws `CANCELLED`.
   */
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
  /** Text that reopens a structure the cut at `at` lies in (a long Secret), if a rule reads one. */
  carry?(text: string, at: number, maxBack: number): Carry | undefined;
  /** Drops what rules remembered of the scanned text, once a write is done with it. */
  forget?(): void;
  /** Ids of the rules that carry: a finding of one means a structure may still be open. */
  readonly carriers?: ReadonlySet<string>;
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
 * A chunk longer than this is read in pieces of this size. Measured on the benchmark corpus, this
 * size costs the least: smaller pieces pay a scan's fixed costs and the rescan of the held tail
 * more often (20,000: 0.77x one-shot), larger ones lose more than they save (60,000: 0.73x, where
 * 30,000 gives 0.83-0.92x), though their buffer stays under V8's limit for an ordinary heap object
 * (65,536 characters of two-byte text; a longer string is a "large object" of its own pages, and
 * its allocation costs about as much as the scan of it).
 */
const PIECE = 30_000;
/** A carried structure resumes at most this far before the cut (the rest of the context is dropped). */
const MAX_CARRY_BACK = 1024;
/** Kind given to the rest of a value whose marker an earlier write emitted: it gets no second one. */
const CONTINUED = '\u0000continued';

/**
 * `slice` as a string of its own when it is a small part of a large `parent`: V8 makes a slice a
 * view into its parent, so a 1 KB tail held between writes kept a 100 MB chunk alive.
 */
function detached(slice: string, parentLength: number): string {
  if (slice.length === 0 || parentLength < 4 * slice.length + 65_536) return slice;
  // Concatenating then slicing flattens into a new string of the slice's length only.
  return ` ${slice}`.slice(1);
}

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
  /** The context begins with a carried prefix: the text is inside a structure a rule reads whole. */
  let carried = false;
  /** The last emit cut a value in two: its marker is out, the rest of it gets none. */
  let continuing = false;
  const marker = (kind: string): string => (kind === CONTINUED ? '' : dependencies.marker(kind));
  /** Its readable() was aborted or cancelled: what it held is dropped, and it takes no more text. */
  let cancelled = false;
  const cancel = (): void => {
    cancelled = true;
    context = '';
    pending = '';
    scanned = 0;
    carried = false;
    continuing = false;
  };

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
    let carry: Carry | undefined;
    let split = false;
    let manifestOpen = carried;
    if (!final) {
      // A long token still being written (a JWT, a long key) is held whole, up to MAX_OPEN_TOKEN.
      const openManifest = dependencies.openFrom(buffer);
      if (openManifest < buffer.length) manifestOpen = true;
      const open = Math.min(openTokenStart(buffer), openManifest);
      if (open < cut) cut = Math.max(base, open);
      for (const finding of found) {
        if (finding.end <= base) continue;
        if (!((finding.start < cut && finding.end > cut) || finding.end >= buffer.length)) continue;
        // A value longer than a stream holds (a Secret's value of megabytes on one line): its
        // marker goes out now and the rest is dropped as it arrives, so the held text stays bounded.
        if (finding.end >= buffer.length && buffer.length - finding.start > MAX_OPEN_TOKEN) {
          const at = buffer.length - hold;
          const resume = dependencies.carry?.(buffer, at, MAX_CARRY_BACK);
          if (resume?.inValue && resume.from > Math.max(base, finding.start)) {
            cut = resume.from;
            carry = resume;
            split = true;
            continue;
          }
        }
        cut = Math.max(base, Math.min(cut, finding.start));
      }
      const carriers = dependencies.carriers;
      if (carriers && found.some((finding) => finding.end > base && carriers.has(finding.ruleId)))
        manifestOpen = true;
    }
    if (cut <= base) {
      dependencies.forget?.();
      return '';
    }
    const local: Finding[] = [];
    for (const finding of found) {
      if (finding.end <= base || finding.start >= cut) continue;
      const start = Math.max(finding.start, base) - base;
      const end = Math.min(finding.end, cut) - base;
      const last = findings[findings.length - 1];
      if (continuing && start === 0) {
        // The rest of the value the last write cut: no second marker, the same finding grows.
        local.push({ ...finding, kind: CONTINUED, start, end });
        if (last !== undefined) findings[findings.length - 1] = { ...last, end: end + emittedBefore };
        continue;
      }
      local.push({ ...finding, start, end });
      if (findings.length < MAX_FINDINGS)
        findings.push({ ...finding, start: start + emittedBefore, end: end + emittedBefore });
    }
    continuing = split;
    // Slices of the (already flattened) buffer are views: no copies of the chunk.
    const emitted = buffer.slice(base, cut);
    pending = detached(buffer.slice(cut), buffer.length);
    scanned = pending.length;
    if (!final && carry === undefined && manifestOpen)
      carry = dependencies.carry?.(buffer, cut, MAX_CARRY_BACK);
    carried = carry !== undefined;
    // Inside a structure a rule reads whole, the context is that structure's shape (a few
    // synthetic lines) and the text since a place it can resume from, not the structure's text.
    context = detached(
      carry
        ? `${carry.prefix}${buffer.slice(carry.from, cut)}`
        : buffer.slice(Math.max(0, cut - CONTEXT), cut),
      buffer.length,
    );
    emittedBefore += emitted.length;
    dependencies.forget?.();
    return applyFindings(emitted, local, marker);
  };

  const stream: StreamScrubber = {
    write(chunk) {
      if (typeof chunk !== 'string')
        throw new ToolError(
          'INVALID_ARGUMENTS',
          `stream write expects a string chunk, got ${chunk === null ? 'null' : typeof chunk}; decode bytes first (TextDecoder with { stream: true })`,
        );
      if (cancelled)
        throw new ToolError(
          'CANCELLED',
          'this stream scrubber was cancelled (its readable() was aborted or cancelled) and dropped what it held; create a new one with createStreamScrubber()',
        );
      if (pending.length + chunk.length <= PIECE) {
        pending += chunk;
        return emit(false);
      }
      // A long chunk is read in pieces, each filling the held text up to PIECE, so every scan reads
      // as much new text as it can (the held tail is read again by each); the output is the same as
      // for any other cut of the text. A last piece much shorter than that waits for the next write
      // or the flush, where a full scan reads it: a scan of it now would read the held tail and the
      // context again for little new text.
      let out = '';
      let at = 0;
      while (at < chunk.length) {
        const room = Math.max(PIECE - pending.length, PIECE >> 2);
        const end = Math.min(chunk.length, at + room);
        pending += chunk.slice(at, end);
        at = end;
        if (at < chunk.length || pending.length >= PIECE >> 1) out += emit(false);
        // Held as a copy of its own, not a slice that keeps the chunk alive.
        else pending = detached(pending, chunk.length);
      }
      return out;
    },
    flush() {
      if (cancelled) return '';
      const out = emit(true);
      context = '';
      return out;
    },
    findings,
    readable() {
      // `cancel` (the writable side aborted or the readable side cancelled; Node >= 20.19 calls it)
      // is missing from TypeScript's Transformer type, hence the typed variable.
      const transformer: ConstructorParameters<typeof TransformStream<string, string>>[0] & {
        cancel(reason: unknown): void;
      } = {
        transform(chunk, controller) {
          const out = stream.write(chunk);
          if (out) controller.enqueue(out);
        },
        flush(controller) {
          const out = stream.flush();
          if (out) controller.enqueue(out);
        },
        cancel,
      };
      return new TransformStream<string, string>(transformer);
    },
  };
  return stream;
}
