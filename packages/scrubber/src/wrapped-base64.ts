// Base64 that a tool wrapped into lines (`base64` and MIME at 76 columns, `openssl base64` and
// PEM at 64) and hex from `xxd -p` (60 columns): a held value's encoding may be cut by a line
// break, so runs of such lines are searched joined.

function isBase64Code(code: number): boolean {
  return (
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    (code >= 48 && code <= 57) ||
    code === 43 ||
    code === 47 ||
    code === 45 ||
    code === 95
  );
}

/** Whether `text` from `start` to `end` is all base64 (stops at the first other character). */
function isBase64Line(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isBase64Code(text.charCodeAt(i))) return false;
  return end > start;
}

/** A run of wrapped base64 lines joined, with the original position of each joined character. */
export interface WrappedRun {
  readonly text: string;
  readonly positions: Int32Array;
}

function join(text: string, lines: readonly [number, number][]): WrappedRun {
  let size = 0;
  for (const [start, end] of lines) size += end - start;
  const positions = new Int32Array(size);
  let cursor = 0;
  for (const [start, end] of lines) for (let i = start; i < end; i++) positions[cursor++] = i;
  return { text: lines.map(([start, end]) => text.slice(start, end)).join(''), positions };
}

/** Widths of wrapped lines: `xxd -p` hex, PEM and `openssl base64`, `base64` and MIME. */
function isWrapWidth(length: number): boolean {
  return length === 60 || length === 64 || length === 76;
}

/**
 * A line start (after its `\n`) whose first 60 characters are base64: only such a line can begin a
 * run, and a native regex search finds them faster than a visit to every line.
 */
const RUN_START = /\n[A-Za-z0-9+/_-]{60}/g;

/**
 * The runs found so far and the one being read (its lines, its width; 0 between runs). Kept in an
 * object passed to module functions, not in closures a scan would allocate each time.
 */
interface RunState {
  readonly text: string;
  readonly runs: WrappedRun[];
  lines: [number, number][];
  width: number;
}

function close(state: RunState): void {
  if (state.lines.length >= 2) state.runs.push(join(state.text, state.lines));
  if (state.lines.length > 0) state.lines = [];
  state.width = 0;
}

/** Reads the line at `start`; returns where the next line starts. */
function visit(state: RunState, start: number): number {
  const text = state.text;
  let newline = text.indexOf('\n', start);
  if (newline === -1) newline = text.length;
  const end = newline > start && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
  let body = end;
  while (body > start && end - body < 2 && text.charCodeAt(body - 1) === 61) body--;
  const length = end - start;
  const width = state.width;
  // Only lines that could continue or start a run are checked character by character.
  const base64 = (width > 0 ? length <= width : isWrapWidth(length)) && isBase64Line(text, start, body);
  if (width > 0 && base64 && length <= width) {
    state.lines.push([start, body]);
    if (length < width || body < end) close(state); // a short or padded line ends the run
  } else {
    close(state);
    if (isWrapWidth(length) && body === end && base64) {
      state.lines.push([start, end]);
      state.width = length;
    }
  }
  return newline + 1;
}

/**
 * Runs of at least two consecutive lines of base64 (or hex) 60, 64 or 76 characters wide (the last line may
 * be shorter or padded), joined without their line breaks. Linear: lines are visited from a line
 * that can begin a run (one of a wrap width after a line break of `breaks`, the positions of the
 * line breaks when the pass over the text noted them, else found by {@link RUN_START}) until the
 * run ends, each line once, and only lines of a run's width are checked character by character.
 */
export function wrappedBase64Runs(text: string, breaks?: Int32Array): WrappedRun[] {
  const state: RunState = { text, runs: [], lines: [], width: 0 };
  let next = visit(state, 0);
  let breakIndex = 0;
  while (next < text.length) {
    if (state.width === 0 && breaks !== undefined) {
      // Between runs: skip to the next line of a wrap width (only such a line can begin a run).
      while (breakIndex < breaks.length && (breaks[breakIndex] as number) < next - 1) breakIndex++;
      let found = -1;
      for (; breakIndex < breaks.length; breakIndex++) {
        const start = (breaks[breakIndex] as number) + 1;
        const newline = breakIndex + 1 < breaks.length ? (breaks[breakIndex + 1] as number) : text.length;
        const end = newline > start && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
        if (isWrapWidth(end - start)) {
          found = start;
          break;
        }
      }
      if (found === -1) break;
      next = found;
    } else if (state.width === 0) {
      // Between runs: skip to the next line that can begin one.
      RUN_START.lastIndex = next - 1;
      if (RUN_START.exec(text) === null) break;
      next = RUN_START.lastIndex - 60;
    }
    next = visit(state, next);
  }
  close(state);
  return state.runs;
}
