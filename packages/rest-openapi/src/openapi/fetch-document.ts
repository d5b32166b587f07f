import { constants, createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { ToolError, errorMessage } from '@toolplane/core';
import { type Dispatcher, request } from 'undici';
import { untilAborted } from '../call-stop.js';

/** Default of `maxDocumentBytes`: 64 MiB. */
export const DEFAULT_MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;
/** Default of `fetchTimeoutMs`: 30 s. */
export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;

/** Limits of one document read: the main document or one it refers to. */
export interface ReadLimits {
  /** Largest document accepted. */
  readonly maxBytes: number;
  /** Longest a fetch may take, body included. */
  readonly timeoutMs: number;
  /** Stops a fetch in progress (`CANCELLED`). */
  readonly signal?: AbortSignal;
  readonly dispatcher?: Dispatcher;
}

/**
 * A document URL as messages show it: without its query, which may hold a key
 * (`/openapi.json?key=...`), as call failures never show a query either.
 */
export function shownUrl(url: string): string {
  return /^https?:\/\//i.test(url) ? url.replace(/\?[^#]*/, '?…') : url;
}

function tooLarge(where: string, maxBytes: number): ToolError {
  return new ToolError(
    'CONFIG_INVALID',
    `the OpenAPI document ${where} is larger than ${maxBytes} bytes; raise maxDocumentBytes`,
    { details: { document: where, maxBytes } },
  );
}

/**
 * Fetches a document with `GET`, no further than `maxBytes` and no longer than `timeoutMs`
 * (headers and body together). Redirects are not followed. Failures: `CANCELLED` (the signal),
 * `TIMEOUT`, `CONFIG_INVALID` (too large), `PROVIDER_UNAVAILABLE` (anything else).
 */
export async function fetchDocumentText(target: string, limits: ReadLimits): Promise<string> {
  const url = shownUrl(target);
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = limits.signal ? AbortSignal.any([limits.signal, timeout]) : timeout;
  let response: Dispatcher.ResponseData | undefined;
  try {
    // undici settles a fetch aborted while it connects only once connected or timed out (10 s)
    response = await untilAborted(
      request(target, {
        method: 'GET',
        headers: { accept: 'application/json, application/yaml, text/yaml, */*;q=0.5' },
        signal,
        ...(limits.dispatcher ? { dispatcher: limits.dispatcher } : {}),
      }),
      signal,
    );
    if (response.statusCode !== 200) {
      throw new ToolError(
        'PROVIDER_UNAVAILABLE',
        `fetching the OpenAPI document ${url} answered HTTP ${response.statusCode}`,
        { details: { document: url, status: response.statusCode } },
      );
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > limits.maxBytes) throw tooLarge(url, limits.maxBytes);
    return await readCapped(response.body, limits.maxBytes, url);
  } catch (error) {
    // the body is not read to its end: close the connection instead of draining it (undici
    // reports the destruction as an error event, which nothing else listens to any more)
    response?.body.on('error', () => undefined).destroy();
    if (limits.signal?.aborted) {
      throw new ToolError('CANCELLED', `fetching the OpenAPI document ${url} was cancelled`, {
        cause: error,
      });
    }
    if (ToolError.isInstance(error)) throw error;
    if (timeout.aborted) {
      // the body of a server that never ends used to escape as a bare DOMException
      throw new ToolError(
        'TIMEOUT',
        `fetching the OpenAPI document ${url} took longer than ${limits.timeoutMs} ms; raise fetchTimeoutMs`,
        { cause: error, details: { document: url, timeoutMs: limits.timeoutMs } },
      );
    }
    throw new ToolError(
      'PROVIDER_UNAVAILABLE',
      `could not fetch the OpenAPI document ${url}: ${errorMessage(error)}`,
      { cause: error, details: { document: url } },
    );
  }
}

/** The text of a body, no further than `maxBytes` (`CONFIG_INVALID` past it). */
async function readCapped(body: AsyncIterable<unknown>, maxBytes: number, where: string): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) throw tooLarge(where, maxBytes);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

/**
 * Reads a document file, no further than `maxBytes` (a device or a pipe may never end) and
 * for no longer than `timeoutMs` (a FIFO nobody writes to blocks even its opening): past it,
 * `TIMEOUT`, and a FIFO still being opened is released so no thread stays blocked on it. (A
 * read stream's own `signal` does not end an `open` that is still waiting: hence the timer.)
 */
export async function readDocumentFile(path: string, limits: ReadLimits): Promise<string> {
  const { timeoutMs, signal } = limits;
  const stream = createReadStream(path);
  let stopped: ToolError | undefined;
  let released: Promise<void> | undefined;
  const stop = (error: ToolError): void => {
    if (stopped) return;
    stopped = error;
    stream.destroy(error);
    released = releaseFifo(path);
  };
  const timer = setTimeout(
    () =>
      stop(
        new ToolError(
          'TIMEOUT',
          `the OpenAPI document ${path} was not read within ${timeoutMs} ms (a pipe or FIFO nobody writes to?); pass a regular file or raise fetchTimeoutMs`,
          { details: { document: path, timeoutMs } },
        ),
      ),
    timeoutMs,
  );
  const onAbort = (): void =>
    stop(new ToolError('CANCELLED', `the read of the OpenAPI document ${path} was cancelled`));
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const text = await readCapped(stream, limits.maxBytes, path);
    if (stopped) throw stopped;
    return text;
  } catch (error) {
    if (stopped) throw stopped;
    if (ToolError.isInstance(error)) throw error;
    throw new ToolError(
      'CONFIG_INVALID',
      `cannot read the OpenAPI document ${path}: ${errorMessage(error)}`,
      { cause: error, details: { document: path } },
    );
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    stream.destroy();
    // Settled only once the FIFO is released: a next read of it must not meet our writer.
    await released;
  }
}

/**
 * Ends the wait of an `open` of a FIFO for reading that no writer will ever end: opening it
 * for writing, without blocking, completes that open (whose stream, destroyed, then closes
 * it), and closing the writer at once gives the reader an end of file. Anything but a FIFO
 * is left alone.
 */
async function releaseFifo(path: string): Promise<void> {
  try {
    if (!(await stat(path)).isFIFO()) return;
    const writer = await open(path, constants.O_WRONLY | constants.O_NONBLOCK);
    await writer.close();
  } catch {
    // No reader waiting (ENXIO), or the FIFO is gone: nothing is blocked on it.
  }
}
