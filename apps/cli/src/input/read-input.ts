import { isUtf8 } from 'node:buffer';
import { type Stats, constants, createReadStream, openSync } from 'node:fs';
import { Socket } from 'node:net';
import { CliError, EXIT_CODES, usageError } from '../output/cli-error.js';

/** The environment variable that sets how long a pipe, FIFO, device or stdin may take to end. */
export const INPUT_TIMEOUT_VARIABLE = 'TOOLPLANE_INPUT_TIMEOUT_MS';

/** How long input that is not a regular file may take to end, unless the variable says otherwise. */
export const DEFAULT_INPUT_TIMEOUT_MS = 60_000;

/** The longest delay a Node timer holds; a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

/** How one input is bounded, and what to say when it is not within bounds. */
export interface InputBounds {
  readonly maxBytes: number;
  /** Undefined: no time limit (a person typing on a terminal). */
  readonly timeoutMs: number | undefined;
  readonly tooLarge: () => Error;
  readonly tooSlow: (timeoutMs: number) => Error;
}

/**
 * The input timeout from {@link INPUT_TIMEOUT_VARIABLE}, or the default; a value that is not a
 * positive whole number is a usage error (not silently the default).
 */
export function inputTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[INPUT_TIMEOUT_VARIABLE];
  if (raw === undefined || raw === '') return DEFAULT_INPUT_TIMEOUT_MS;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value <= 0)
    throw usageError(
      `${INPUT_TIMEOUT_VARIABLE} must be a positive whole number of milliseconds, got ${JSON.stringify(raw.slice(0, 40))}`,
      `for example ${INPUT_TIMEOUT_VARIABLE}=120000 (two minutes), or unset it for ${DEFAULT_INPUT_TIMEOUT_MS / 1000} s`,
    );
  if (value > MAX_TIMER_MS)
    throw usageError(
      `${INPUT_TIMEOUT_VARIABLE} must be at most ${MAX_TIMER_MS} (about 24 days), got ${JSON.stringify(raw.slice(0, 40))}`,
      `for example ${INPUT_TIMEOUT_VARIABLE}=120000 (two minutes)`,
    );
  return value;
}

/** A `TIMEOUT` that ends the command as a usage error (exit code 2): the input never ended. */
export function inputTimeout(message: string, hint: string): CliError {
  return new CliError(message, { exitCode: EXIT_CODES.usage, code: 'TIMEOUT', hint });
}

/**
 * Reads a stream to its end, or fails as soon as it passes `maxBytes` or has not ended within
 * the timeout. The stream is destroyed either way.
 */
export function readStreamBounded(
  stream: NodeJS.ReadableStream & { destroy(): void },
  bounds: InputBounds,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer =
      bounds.timeoutMs === undefined
        ? undefined
        : setTimeout(() => settle(bounds.tooSlow(bounds.timeoutMs as number)), bounds.timeoutMs);
    const onData = (chunk: unknown): void => {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      size += buffer.length;
      if (size > bounds.maxBytes) settle(bounds.tooLarge());
      else chunks.push(buffer);
    };
    const onEnd = (): void => settle(undefined, Buffer.concat(chunks));
    const onError = (error: unknown): void =>
      settle(error instanceof Error ? error : new Error(String(error)));
    function settle(error: Error | undefined, value?: Buffer): void {
      if (timer) clearTimeout(timer);
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
      // an error after this (a late EPIPE, a read racing the destroy) has nobody to tell
      stream.on('error', () => {});
      stream.destroy();
      if (error) reject(error);
      else resolve(value as Buffer);
    }
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

/** What a path is when it cannot be read as input ('a directory', 'a socket'), else undefined. */
export function unreadableKind(info: Stats): string | undefined {
  if (info.isDirectory()) return 'a directory';
  if (info.isSocket()) return 'a socket';
  return undefined;
}

/**
 * Reads a file that {@link unreadableKind} accepts. A regular file is checked against the limit
 * before it is read and has no time limit (it ends); a pipe or FIFO is opened without blocking
 * (opening one for reading otherwise waits, in a thread nothing can stop, until a writer comes)
 * and read as it comes; a device is read too. Anything but a regular file must end within the
 * timeout and is cut at the limit.
 */
export async function readInputFile(file: string, info: Stats, bounds: InputBounds): Promise<Buffer> {
  if (info.isFile()) {
    if (info.size > bounds.maxBytes) throw bounds.tooLarge();
    // a file that grows while it is read still stops at the limit
    return readStreamBounded(createReadStream(file), { ...bounds, timeoutMs: undefined });
  }
  if (info.isFIFO()) {
    // a non-blocking open of a FIFO returns at once; the socket owns the descriptor from here on
    const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const socket = new Socket({ fd, readable: true, writable: false });
    return readStreamBounded(socket, bounds);
  }
  return readStreamBounded(createReadStream(file), bounds);
}

/**
 * Decodes input as UTF-8 (JSON and YAML files are UTF-8). Bytes that are not UTF-8 (a file saved
 * as Latin-1) or a UTF-16 file (Windows PowerShell 5 writes `>` as UTF-16) are refused with
 * `refuse(problem)`: decoded anyway, they would become replacement characters and the command
 * would run with other text than the file holds.
 */
export function decodeUtf8(buffer: Buffer, refuse: (problem: string) => Error): string {
  const first = buffer[0];
  const second = buffer[1];
  if ((first === 0xff && second === 0xfe) || (first === 0xfe && second === 0xff))
    throw refuse('is UTF-16 (it starts with a UTF-16 byte order mark)');
  if (isUtf8(buffer)) return buffer.toString('utf8');
  // the text before the first bad sequence decodes exactly, so its length in bytes is the offset
  // of that sequence; a replacement character written in the file (EF BF BD) is skipped
  const text = buffer.toString('utf8');
  let offset = 0;
  let from = 0;
  for (let index = text.indexOf('\uFFFD'); index !== -1; index = text.indexOf('\uFFFD', index + 1)) {
    offset += Buffer.byteLength(text.slice(from, index));
    from = index;
    if (!(buffer[offset] === 0xef && buffer[offset + 1] === 0xbf && buffer[offset + 2] === 0xbd)) break;
  }
  let line = 1;
  for (
    let index = buffer.indexOf(0x0a);
    index !== -1 && index < offset;
    index = buffer.indexOf(0x0a, index + 1)
  )
    line++;
  throw refuse(`is not valid UTF-8 at byte ${offset + 1} (line ${line})`);
}
