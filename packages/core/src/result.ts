import { type ContentBlock, textContent } from './content.js';
import { ERROR_CODES, type ToolErrorCode, ToolError, errorMessage, isRetryableCode } from './errors.js';

/** Where an output too large for the model was stored, and how to read the rest. */
export interface OverflowHandle {
  /** Opaque handle for the `tool_output` tool. */
  readonly handle: string;
  readonly reason: 'bytes' | 'tokens';
  readonly bytes: number;
  readonly lines: number;
  readonly tokens: number;
}

/** Facts about one call, filled in by the orchestrator. */
export interface CallMeta {
  readonly callId: string;
  /** Public (namespaced) tool name. */
  readonly tool: string;
  readonly provider: string;
  readonly kind: string;
  readonly latencyMs: number;
  readonly queueWaitMs: number;
  readonly bytesIn: number;
  readonly bytesOut: number;
  readonly cached: boolean;
  readonly attempts: number;
  readonly truncated?: OverflowHandle;
}

/** The error half of a failed result. */
export interface ToolFailureInfo {
  readonly code: ToolErrorCode;
  readonly message: string;
  readonly retryable?: boolean;
  readonly details?: Record<string, unknown>;
}

/** A successful call. */
export interface ToolSuccess {
  readonly ok: true;
  readonly content: readonly ContentBlock[];
  /** Structured data, validated against the tool's output schema when it has one. */
  readonly structured?: unknown;
  readonly meta?: CallMeta;
}

/** A failed call: a stable code and a message that says what to do. */
export interface ToolFailure {
  readonly ok: false;
  readonly error: ToolFailureInfo;
  /** Anything the tool printed before failing (for example a command's output). */
  readonly content?: readonly ContentBlock[];
  readonly meta?: CallMeta;
}

/** What every tool call returns: never thrown, always one of these. */
export type ToolResult = ToolSuccess | ToolFailure;

/**
 * A successful result from text or content blocks.
 *
 * @example
 * return ok('3 files changed');
 */
export function ok(content: string | readonly ContentBlock[], structured?: unknown): ToolSuccess {
  const blocks = typeof content === 'string' ? [textContent(content)] : content;
  return structured === undefined ? { ok: true, content: blocks } : { ok: true, content: blocks, structured };
}

/**
 * A failed result.
 *
 * @example
 * return fail('INVALID_ARGUMENTS', 'offset is past the end of the file (120 lines); pass offset < 120');
 */
export function fail(
  code: ToolErrorCode,
  message: string,
  options: { details?: Record<string, unknown>; retryable?: boolean; content?: readonly ContentBlock[] } = {},
): ToolFailure {
  const error: ToolFailureInfo = {
    code,
    message,
    retryable: options.retryable ?? isRetryableCode(code),
    ...(options.details ? { details: options.details } : {}),
  };
  return options.content ? { ok: false, error, content: options.content } : { ok: false, error };
}

/** A failed result from anything thrown: a ToolError keeps its code, anything else is `fallback`. */
export function failFromError(error: unknown, fallback: ToolErrorCode = 'EXECUTION_FAILED'): ToolFailure {
  if (ToolError.isInstance(error)) {
    try {
      return fail(error.code, error.message, {
        retryable: error.retryable,
        ...(error.details ? { details: error.details } : {}),
      });
    } catch {
      // A look-alike whose fields throw when read: judged as any other thrown value.
    }
  }
  return fail(fallback, errorMessage(error));
}

const CODE_SET: ReadonlySet<string> = new Set(ERROR_CODES);
const CONTENT_TYPES: ReadonlySet<string> = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

function isContentBlock(value: unknown): value is ContentBlock {
  if (typeof value !== 'object' || value === null) return false;
  const block = value as Record<string, unknown>;
  if (!CONTENT_TYPES.has(block.type as string)) return false;
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string';
    case 'image':
    case 'audio':
      return typeof block.data === 'string' && typeof block.mimeType === 'string';
    case 'resource':
      return (
        typeof block.resource === 'object' &&
        block.resource !== null &&
        typeof (block.resource as { uri?: unknown }).uri === 'string'
      );
    default:
      return typeof block.uri === 'string';
  }
}

/**
 * Checks that a value returned by a provider really is a {@link ToolResult}; returns a
 * description of the first problem, or undefined when it is well formed.
 */
export function describeInvalidResult(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null)
    return `expected a ToolResult object, got ${value === null ? 'null' : typeof value}`;
  const result = value as Record<string, unknown>;
  if (result.ok === true) {
    if (!Array.isArray(result.content)) return 'ok result without a content array';
    for (let i = 0; i < result.content.length; i++) {
      if (!isContentBlock(result.content[i])) return `content[${i}] is not a valid content block`;
    }
    return undefined;
  }
  if (result.ok === false) {
    const error = result.error as Record<string, unknown> | undefined;
    if (typeof error !== 'object' || error === null) return 'failed result without an error object';
    if (typeof error.code !== 'string' || !CODE_SET.has(error.code))
      return `unknown error code ${JSON.stringify(error.code)}`;
    if (typeof error.message !== 'string') return 'failed result without an error message';
    return undefined;
  }
  return 'result has no boolean "ok" field';
}

/** What a tool's `execute` may return: a result, plain text, or content blocks. */
export type ToolReturn = ToolResult | string | readonly ContentBlock[];

/** Turns a {@link ToolReturn} into a {@link ToolResult}. */
export function toToolResult(value: ToolReturn): ToolResult {
  if (typeof value === 'string') return ok(value);
  if (Array.isArray(value)) return ok(value as readonly ContentBlock[]);
  return value as ToolResult;
}
