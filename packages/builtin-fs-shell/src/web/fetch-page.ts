import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
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
}

function decoded(body: Readable, encoding: string | undefined): Readable {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return body.pipe(createGunzip());
    case 'deflate':
      return body.pipe(createInflate());
    case 'br':
      return body.pipe(createBrotliDecompress());
    default:
      return body;
  }
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

/**
 * GETs a URL through the guarded agent, following redirects by hand so that every hop's URL
 * is checked (scheme, credentials) and every hop's connection goes through the address guard.
 */
export async function fetchPage(start: string, agent: Agent, limits: FetchLimits): Promise<FetchedPage> {
  let url: URL;
  try {
    url = new URL(start);
  } catch {
    throw new ToolError('INVALID_ARGUMENTS', `"${start}" is not a valid URL; pass an absolute http(s) URL`);
  }
  const redirects: string[] = [];
  for (let hop = 0; ; hop++) {
    checkUrl(url);
    const response = await request(url, {
      method: 'GET',
      dispatcher: agent,
      signal: limits.signal,
      headers: {
        'user-agent': limits.userAgent,
        accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
      },
    });
    const location = response.headers.location;
    if (response.statusCode >= 300 && response.statusCode < 400 && location !== undefined) {
      await response.body.dump();
      if (hop >= limits.maxRedirects) {
        throw new ToolError(
          'EXECUTION_FAILED',
          `more than ${limits.maxRedirects} redirects, last to ${String(location)}`,
        );
      }
      const next = new URL(Array.isArray(location) ? (location[0] as string) : location, url);
      redirects.push(next.toString());
      url = next;
      continue;
    }
    const header = response.headers['content-type'];
    const contentType = (Array.isArray(header) ? header[0] : header) ?? 'application/octet-stream';
    const encodingHeader = response.headers['content-encoding'];
    const encoding = Array.isArray(encodingHeader) ? encodingHeader[0] : encodingHeader;
    const { body, truncated } = await readCapped(decoded(response.body, encoding), limits.maxBytes);
    return { url: url.toString(), status: response.statusCode, contentType, body, truncated, redirects };
  }
}
