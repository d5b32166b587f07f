import { createReadStream } from 'node:fs';
import { ToolError, errorMessage } from '@toolplane/core';
import { type Dispatcher, request } from 'undici';

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
    response = await request(target, {
      method: 'GET',
      headers: { accept: 'application/json, application/yaml, text/yaml, */*;q=0.5' },
      signal,
      ...(limits.dispatcher ? { dispatcher: limits.dispatcher } : {}),
    });
    if (response.statusCode !== 200) {
      throw new ToolError(
        'PROVIDER_UNAVAILABLE',
        `fetching the OpenAPI document ${url} answered HTTP ${response.statusCode}`,
        { details: { document: url, status: response.statusCode } },
      );
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > limits.maxBytes) throw tooLarge(url, limits.maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of response.body) {
      total += (chunk as Buffer).length;
      if (total > limits.maxBytes) throw tooLarge(url, limits.maxBytes);
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks, total).toString('utf8');
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

/** Reads a document file, no further than `maxBytes` (a device or a pipe may never end). */
export async function readDocumentFile(path: string, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  const stream = createReadStream(path);
  try {
    for await (const chunk of stream) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) throw tooLarge(path, maxBytes);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (ToolError.isInstance(error)) throw error;
    throw new ToolError(
      'CONFIG_INVALID',
      `cannot read the OpenAPI document ${path}: ${errorMessage(error)}`,
      { cause: error, details: { document: path } },
    );
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, total).toString('utf8');
}
