import { bodyText } from './decode.js';
import { MAX_NESTING } from './limits.js';
import { type ToolErrorCode, type ToolResult, fail, ok } from '@toolplane/core';

/** The bytes read from a response body, and whether the cap cut it. */
export interface ReadBody {
  readonly bytes: Buffer;
  readonly overflow: boolean;
}

/** A readable body stream, as undici returns it. */
export interface BodyStream {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  destroy(): unknown;
}

/**
 * Reads at most `maxBytes` of a body; stops reading (and destroys the stream) past that.
 * Listens for events rather than async-iterating, which costs less per call.
 */
export function readCapped(body: BodyStream, maxBytes: number): Promise<ReadBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    body.on('data', (chunk) => {
      if (settled) return;
      if (total + chunk.length > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - total));
        total = maxBytes;
        settled = true;
        body.destroy();
        resolve({ bytes: Buffer.concat(chunks, total), overflow: true });
        return;
      }
      chunks.push(chunk);
      total += chunk.length;
    });
    body.on('end', () => {
      if (settled) return;
      settled = true;
      resolve({
        bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total),
        overflow: false,
      });
    });
    body.on('error', (error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
  });
}

/** How a response body is shown. */
export type BodyKind = 'json' | 'text' | 'binary';

const TEXT_TYPES =
  /^(text\/|application\/(xml|javascript|x-www-form-urlencoded|yaml|x-yaml|x-ndjson|graphql)\b)|\+xml$|\+yaml$/;

function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x09 || (code > 0x0d && code < 0x20)) return true;
  }
  return false;
}

/** JSON, text or binary, from the content type (and the bytes when the type says nothing). */
export function classifyBody(contentType: string | undefined, bytes: Buffer): BodyKind {
  const base = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (base === 'application/json' || base.endsWith('+json')) return 'json';
  if (TEXT_TYPES.test(base)) return 'text';
  if (base === '' || base === 'application/octet-stream') {
    // Untyped bodies that are valid UTF-8 without control characters are shown as text.
    const sample = bytes.subarray(0, 4096);
    const text = sample.toString('utf8');
    if (!text.includes('\uFFFD') && !hasControlCharacters(text)) return 'text';
  }
  return 'binary';
}

/** A short excerpt of a body for error messages. */
export function excerpt(bytes: Buffer, contentType: string | undefined, max = 500): string {
  if (bytes.length === 0) return '(empty body)';
  if (classifyBody(contentType, bytes) === 'binary')
    return `(binary ${contentType ?? 'body'}, ${bytes.length} bytes)`;
  const text = bytes
    .subarray(0, max * 4)
    .toString('utf8')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The error code of an HTTP failure status. */
export function codeForStatus(status: number): ToolErrorCode {
  if (status === 400 || status === 422) return 'INVALID_ARGUMENTS';
  if (status === 401 || status === 403) return 'DENIED';
  if (status === 408 || status === 504) return 'TIMEOUT';
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 500) return 'PROVIDER_UNAVAILABLE';
  return 'EXECUTION_FAILED';
}

const ADVICE: Partial<Record<ToolErrorCode, string>> = {
  INVALID_ARGUMENTS: 'the API rejected the arguments; fix them and call again',
  DENIED: 'the credentials were refused or lack permission',
  TIMEOUT: 'the upstream timed out; try again later',
  RATE_LIMITED: 'rate limited; wait before calling again',
  PROVIDER_UNAVAILABLE: 'the API failed; try again later',
};

/** What is known about a finished response. */
export interface ResponseFacts {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly retryAfter: string | undefined;
  /** `METHOD origin/path` without the query (which may hold credentials). */
  readonly target: string;
}

/**
 * The longest `Retry-After` reported in `details.retryAfterSeconds` (an hour): a server asking
 * for more (`999999999`, a date years ahead) is reported as asking for this.
 */
export const MAX_RETRY_AFTER_SECONDS = 3600;

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/** The three HTTP-date forms of RFC 9110 5.6.7: IMF-fixdate, RFC 850 and asctime. */
const IMF_DATE = new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`);
const RFC850_DATE = new RegExp(
  `^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`,
);
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`);

/** Milliseconds since the epoch of an HTTP-date, or NaN for anything else. */
function httpDate(text: string): number {
  if (IMF_DATE.test(text) || RFC850_DATE.test(text)) return Date.parse(text);
  // asctime names no zone; HTTP dates are GMT (Date.parse would take local time)
  if (ASCTIME_DATE.test(text)) return Date.parse(`${text} GMT`);
  return Number.NaN;
}

/**
 * Seconds a `Retry-After` header asks to wait (RFC 9110 10.2.3): delay-seconds (digits only), or
 * an HTTP date (0 once it has passed), at most {@link MAX_RETRY_AFTER_SECONDS}; undefined when
 * absent or neither (`-5`, `1.5`, `soon`, a bare year), rather than a guess at what it meant.
 */
export function retryAfterOf(header: unknown): number | undefined {
  if (typeof header !== 'string') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text), MAX_RETRY_AFTER_SECONDS);
  const at = httpDate(text);
  if (!Number.isFinite(at)) return undefined;
  return Math.min(Math.max(0, Math.ceil((at - Date.now()) / 1000)), MAX_RETRY_AFTER_SECONDS);
}

/** Turns a read response into a result: 2xx is ok, anything else a failure with an excerpt. */
export function toResult(facts: ResponseFacts, read: ReadBody, maxBytes: number): ToolResult {
  const { status, contentType } = facts;
  if (status < 200 || status >= 300) {
    const code = codeForStatus(status);
    const body = excerpt(read.bytes, contentType);
    const retryAfterSeconds = retryAfterOf(facts.retryAfter);
    const advice = ADVICE[code] ?? 'check the arguments and the endpoint';
    return fail(code, `HTTP ${status} from ${facts.target}: ${body} (${advice})`, {
      details: { status, body, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) },
    });
  }
  if (read.overflow) {
    return fail(
      'OUTPUT_TOO_LARGE',
      `the response of ${facts.target} is larger than ${maxBytes} bytes; ask for less (filters, fields, pagination) or raise maxResponseBytes`,
      {
        details: { status, limit: maxBytes },
        content: [{ type: 'text', text: excerpt(read.bytes, contentType, 2000) }],
      },
    );
  }
  if (read.bytes.length === 0) return ok(`HTTP ${status} (empty body)`, { status });
  const kind = classifyBody(contentType, read.bytes);
  if (kind === 'binary') {
    const type = contentType ?? 'application/octet-stream';
    return ok(`binary response: ${type}, ${read.bytes.length} bytes (not shown)`, {
      status,
      contentType: type,
      bytes: read.bytes.length,
    });
  }
  if (kind === 'json') return jsonResult(read.bytes, contentType);
  return ok(bodyText(read.bytes, contentType));
}

/**
 * JSON is UTF-8 between systems and a charset parameter means nothing for it (RFC 8259 8.1), yet
 * servers add wrong ones: UTF-8 first, then the charset the type names (real UTF-16 JSON). A body
 * that parses neither way comes back as its text, without `structured`.
 */
function jsonResult(bytes: Buffer, contentType: string | undefined): ToolResult {
  const utf8 = bodyText(bytes, undefined);
  try {
    return withStructured(utf8, JSON.parse(utf8));
  } catch {
    const declared = bodyText(bytes, contentType);
    try {
      return withStructured(declared, JSON.parse(declared));
    } catch {
      return ok(declared);
    }
  }
}

/**
 * The text and its parsed value, unless the value nests deeper than {@link MAX_NESTING} levels:
 * JSON.parse builds such a value, but serialising it again (a cache, a scrubber, the wire)
 * overflows the stack, so only the text is kept.
 */
function withStructured(text: string, value: unknown): ToolResult {
  return text.length > 2 * MAX_NESTING && jsonNestsDeeperThan(text, MAX_NESTING) ? ok(text) : ok(text, value);
}

/** Whether JSON text opens more than `limit` arrays or objects at once (strings skipped). */
function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}
