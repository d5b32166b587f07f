import type { IncomingMessage } from 'node:http';
import { ApiError } from './api-error.js';

/** Bounds on request bodies. */
export interface BodyLimits {
  readonly maxBytes: number;
  readonly maxDepth: number;
}

function depthOf(value: unknown, maxDepth: number): number {
  // iterative, so a body nested a million deep cannot overflow the stack here
  const stack: [unknown, number][] = [[value, 1]];
  let deepest = 0;
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > maxDepth) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

async function readStream(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string> {
  if (!body) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(
    413,
    'INVALID_ARGUMENTS',
    'body_too_large',
    `the request body is over ${maxBytes} bytes: send less`,
  );
}

/**
 * Reads the Node request itself, as `@hono/node-server` hands it over: no web stream is made
 * for it (they cost more than the rest of a small call). Stops reading past `maxBytes`.
 */
function readIncoming(incoming: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const done = (error?: unknown): void => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', done);
      incoming.off('close', onClose);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, total).toString('utf8'));
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.byteLength;
      if (total > maxBytes) {
        incoming.pause();
        done(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => done();
    const onClose = (): void => {
      if (!incoming.readableEnded)
        done(
          new ApiError(
            400,
            'INVALID_ARGUMENTS',
            'body_incomplete',
            'the client closed the connection before the body ended: send it again',
          ),
        );
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', done);
    incoming.on('close', onClose);
  });
}

/** Where a request body comes from: the Node request when there is one, else a web stream. */
export interface BodySource {
  readonly header: (name: string) => string | undefined;
  readonly incoming?: IncomingMessage | undefined;
  /** Called only when there is no unread Node request (making a web stream costs). */
  readonly stream?: () => ReadableStream<Uint8Array> | null;
}

/**
 * Reads a JSON body: at most `maxBytes` (413 past it, counted as it streams, so a lying
 * Content-Length does not matter), uncompressed (415), JSON only (400), at most `maxDepth`
 * levels deep (400). Answers the value (`{}` for an empty body) and the text as sent.
 */
export async function readJsonBody(
  source: BodySource,
  limits: BodyLimits,
): Promise<{ value: unknown; raw: string }> {
  const header = source.header;
  // compressed bodies are refused rather than inflated: a gzip bomb never expands here
  const encoding = (header('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity')
    throw new ApiError(
      415,
      'INVALID_ARGUMENTS',
      'encoding_unsupported',
      `request bodies with Content-Encoding "${encoding}" are not accepted: send the JSON uncompressed`,
    );
  const declared = Number(header('content-length') ?? '0');
  if (declared > limits.maxBytes) throw tooLarge(limits.maxBytes);
  const raw =
    source.incoming && !source.incoming.readableDidRead
      ? await readIncoming(source.incoming, limits.maxBytes)
      : await readStream(source.stream?.() ?? null, limits.maxBytes);
  const type = header('content-type') ?? '';
  if (raw.length > 0 && !/^application\/json\b/i.test(type))
    throw new ApiError(
      400,
      'INVALID_ARGUMENTS',
      'not_json',
      'send the body as JSON with Content-Type: application/json',
    );
  let value: unknown = {};
  if (raw.trim().length > 0) {
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new ApiError(
        400,
        'INVALID_ARGUMENTS',
        'invalid_json',
        `the body is not valid JSON (${(error as Error).message}): fix the syntax`,
      );
    }
  }
  if (depthOf(value, limits.maxDepth) > limits.maxDepth)
    throw new ApiError(
      400,
      'INVALID_ARGUMENTS',
      'too_deep',
      `the body is nested more than ${limits.maxDepth} levels deep: flatten it`,
    );
  return { value, raw };
}
