import { type Readable, pipeline } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { ToolError } from '@toolplane/core';
import { type Agent, request } from 'undici';

/** A fetched response, body capped. */
export interface FetchedPage {
  readonly url: string;
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
  /** True when the body was cut at the byte cap. */
  readonly truncated: boolean;
  readonly redirects: readonly string[];
}

/** What one fetch may do. */
export interface FetchLimits {
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly userAgent: string;
  readonly signal: AbortSignal;
}

/** Longest URL quoted in a message; the rest is counted. */
const SHOWN_URL_CHARS = 300;

/**
 * A URL (or text meant as one) as messages quote it: any user name and password dropped, and
 * cut when long, so that neither credentials nor a megabyte of path end up in an error.
 */
export function shownUrl(url: string | URL): string {
  const bare = String(url).replace(/^([^:/?#]*:\/\/)[^/?#]*@/, '$1');
  return bare.length > SHOWN_URL_CHARS
    ? `${bare.slice(0, SHOWN_URL_CHARS)}... (${bare.length} characters)`
    : bare;
}

function checkUrl(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      'URLs with a user name or password are refused; remove the credentials',
    );
  }
  if (url.port === '0')
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `${shownUrl(url)} names port 0, which nothing listens on; pass a port from 1 to 65535`,
    );
}

type Decompressor = ReturnType<typeof createGunzip>;

/**
 * Stacked content encodings undone at most. 3000 `gzip`s fit in 16 KiB of headers, and each
 * takes a decompressor (tens of kilobytes, and time to make) before a byte is read; servers
 * apply one, rarely two (fetch in undici stops at 5 too).
 */
const MAX_ENCODINGS = 5;

function decompressor(encoding: string): Decompressor | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

/**
 * The body, decompressed. `content-encoding` lists the encodings in the order they were
 * applied, so they are undone from the last. One this cannot undo (`zstd`, `compress`) fails
 * the fetch rather than return compressed bytes as text. `pipeline` (not `pipe`) so that a body
 * that fails (its connection broke, the fetch timed out or was cancelled) fails the decompressed
 * stream too instead of leaving it waiting for bytes that never come, and destroying the result
 * releases the body.
 */
function decoded(body: Readable, header: string | undefined, url: URL): Readable {
  const encodings = (header ?? '')
    .split(',')
    .map((encoding) => encoding.trim().toLowerCase())
    .filter((encoding) => encoding !== '' && encoding !== 'identity')
    .reverse();
  if (encodings.length === 0) return body;
  if (encodings.length > MAX_ENCODINGS) {
    body.on('error', () => {});
    body.destroy();
    throw new ToolError(
      'EXECUTION_FAILED',
      `${shownUrl(url)} answered with a content-encoding that lists ${encodings.length} encodings; web_fetch undoes at most ${MAX_ENCODINGS} (each needs a decompressor of its own), and the server sends the same on every try`,
    );
  }
  const stages: Decompressor[] = [];
  for (const encoding of encodings) {
    const stage = decompressor(encoding);
    if (!stage) {
      // undici reports a body destroyed unread as an AbortError: nobody reads it any more.
      body.on('error', () => {});
      body.destroy();
      for (const made of stages) made.destroy();
      throw new ToolError(
        'EXECUTION_FAILED',
        `${url} answered with content-encoding "${encoding}", which web_fetch cannot decode (it takes gzip, deflate and br); fetch it with bash and curl --compressed`,
      );
    }
    stages.push(stage);
  }
  return pipeline([body, ...stages], () => {
    // errors reach the reader through the last stage
  }) as unknown as Readable;
}

async function readCapped(stream: Readable, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of stream) {
    const data = chunk as Buffer;
    if (size + data.length > maxBytes) {
      chunks.push(data.subarray(0, maxBytes - size));
      size = maxBytes;
      truncated = true;
      break;
    }
    chunks.push(data);
    size += data.length;
  }
  stream.destroy();
  return { body: Buffer.concat(chunks), truncated };
}

/** Codes of a connection that broke before a response came (a kept-alive one the server closed). */
const BROKEN_CONNECTION = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** Wait before the one second attempt of a GET whose connection broke. */
const RETRY_DELAY_MS = 100;

function brokenConnection(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && BROKEN_CONNECTION.has(code)) return true;
  }
  return false;
}

/**
 * Sends a GET, and once more when the connection broke before any response: a GET changes
 * nothing, and a server closing a kept-alive connection just as it is reused is common.
 */
async function getOnceRetried(url: URL, options: Parameters<typeof request>[1], signal: AbortSignal) {
  try {
    return await request(url, options);
  } catch (error) {
    if (signal.aborted || !brokenConnection(error)) throw error;
    await delay(RETRY_DELAY_MS, undefined, { signal });
    return request(url, options);
  }
}

/**
 * GETs a URL through the guarded agent, following redirects by hand so that every hop's URL
 * is checked (scheme, credentials) and every hop's connection goes through the address guard.
 */
export async function fetchPage(start: string, agent: Agent, limits: FetchLimits): Promise<FetchedPage> {
  let url: URL;
  try {
    url = new URL(start);
  } catch {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `"${shownUrl(start)}" is not a valid URL; pass an absolute http(s) URL (ports go from 1 to 65535)`,
    );
  }
  const redirects: string[] = [];
  for (let hop = 0; ; hop++) {
    checkUrl(url);
    const response = await getOnceRetried(
      url,
      {
        method: 'GET',
        dispatcher: agent,
        signal: limits.signal,
        headers: {
          'user-agent': limits.userAgent,
          accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5',
          'accept-encoding': 'gzip, deflate, br',
        },
      },
      limits.signal,
    );
    const location = response.headers.location;
    if (response.statusCode >= 300 && response.statusCode < 400 && location !== undefined) {
      await response.body.dump();
      if (hop >= limits.maxRedirects) {
        throw new ToolError(
          'EXECUTION_FAILED',
          `more than ${limits.maxRedirects} redirects, last to ${shownUrl(String(location))}`,
        );
      }
      const target = Array.isArray(location) ? (location[0] as string) : location;
      let next: URL;
      try {
        next = new URL(target, url);
      } catch {
        throw new ToolError(
          'EXECUTION_FAILED',
          `${shownUrl(url)} redirected to "${shownUrl(target)}", which is not a valid URL; the server's redirect is broken`,
        );
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw new ToolError(
          'DENIED',
          `${shownUrl(url)} redirected to ${next.protocol === 'data:' || next.protocol === 'javascript:' ? `${next.protocol}...` : shownUrl(next)}, which is not http or https; refused (only http and https are fetched)`,
        );
      }
      if (next.username !== '' || next.password !== '') {
        throw new ToolError(
          'DENIED',
          `${shownUrl(url)} redirected to ${shownUrl(next)} with a user name or password in it; refused (web_fetch sends no credentials)`,
        );
      }
      redirects.push(next.toString());
      url = next;
      continue;
    }
    const header = response.headers['content-type'];
    const contentType = (Array.isArray(header) ? header[0] : header) ?? 'application/octet-stream';
    const encodingHeader = response.headers['content-encoding'];
    const encoding = Array.isArray(encodingHeader) ? encodingHeader[0] : encodingHeader;
    const { body, truncated } = await readCapped(decoded(response.body, encoding, url), limits.maxBytes);
    return { url: url.toString(), status: response.statusCode, contentType, body, truncated, redirects };
  }
}
