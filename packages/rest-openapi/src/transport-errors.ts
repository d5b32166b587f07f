import { type ToolResult, errorMessage, fail } from '@toolplane/core';
import { ADDRESS_DENIED } from '@toolplane/address-guard';
import { PUBLIC_ONLY_HINT } from './public-agent.js';

function codeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Each error of a cause chain, the error first. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error, depth = 0; depth < 5 && current; depth++) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/**
 * What is wrong with an answer that is not valid HTTP/1.1, or undefined for other errors: the
 * parser's complaint, headers past the client's limit, a body that contradicts its length, or
 * an interim (1xx) answer nobody asked for (undici calls that a "bad response").
 */
export function protocolProblem(error: unknown): string | undefined {
  for (const item of causes(error)) {
    const { name, code, message } = item as { name?: unknown; code?: unknown; message?: unknown };
    if (name === 'HTTPParserError' || (typeof code === 'string' && code.startsWith('HPE_')))
      return `a response that is not valid HTTP/1.1 (${String(message)})`;
    if (code === 'UND_ERR_HEADERS_OVERFLOW') return 'response headers larger than the client accepts';
    if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH')
      return 'a body that does not match its content-length';
    if (code === 'UND_ERR_SOCKET' && message === 'bad response')
      return 'an interim (1xx) response it was not asked for, or another malformed one';
  }
  return undefined;
}

/**
 * Turns an undici or socket error into a failure: timeouts are `TIMEOUT`, refused or reset
 * connections `PROVIDER_UNAVAILABLE`, a caller abort `CANCELLED`.
 */
export function transportFailure(
  error: unknown,
  context: {
    target: string;
    callerSignal: AbortSignal;
    timedOut: boolean;
    /** The provider was closed while the call ran. */
    closed?: boolean;
    timeoutMs: number;
    /** The response's headers had arrived: a connection lost now was lost in the middle of the body. */
    answered?: boolean;
  },
): ToolResult {
  if (context.timedOut) {
    return fail(
      'TIMEOUT',
      `${context.target} did not answer within ${context.timeoutMs} ms; try again or raise timeoutMs`,
      {
        details: { timeoutMs: context.timeoutMs },
      },
    );
  }
  if (context.closed) return closedWhileRunning(context.target);
  if (context.callerSignal.aborted) {
    const reason = context.callerSignal.reason as { name?: string } | undefined;
    if (reason?.name === 'TimeoutError') {
      return fail('TIMEOUT', `the call to ${context.target} ran past its deadline`);
    }
    return fail('CANCELLED', `the call to ${context.target} was cancelled`);
  }
  if ((error as { name?: unknown } | null)?.name === 'TimeoutError') {
    return fail(
      'TIMEOUT',
      `${context.target} did not answer within ${context.timeoutMs} ms; try again or raise timeoutMs`,
      {
        details: { timeoutMs: context.timeoutMs },
      },
    );
  }
  const broken = protocolProblem(error);
  if (broken !== undefined) {
    return fail(
      'EXECUTION_FAILED',
      `${context.target} answered with ${broken}; the server or a proxy in between is misbehaving, so trying again will not help until it is fixed`,
      { retryable: false },
    );
  }
  const code = codeOf(error);
  switch (code) {
    case ADDRESS_DENIED:
      return fail('DENIED', `${context.target} was not sent: ${errorMessage(error)}; ${PUBLIC_ONLY_HINT}`, {
        details: { cause: code },
      });
    case 'UND_ERR_CONNECT_TIMEOUT':
      return fail(
        'TIMEOUT',
        `connecting to ${context.target} timed out; the host may be down or unreachable`,
        {
          details: { cause: code },
        },
      );
    case 'UND_ERR_HEADERS_TIMEOUT':
      return fail('TIMEOUT', `${context.target} sent no response headers in time; try again later`, {
        details: { cause: code },
      });
    case 'UND_ERR_BODY_TIMEOUT':
      return fail('TIMEOUT', `${context.target} stopped sending its response body; try again later`, {
        details: { cause: code },
      });
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return fail(
        'PROVIDER_UNAVAILABLE',
        context.answered
          ? `${context.target} answered, then closed the connection before its body ended (${code}): ${errorMessage(error)}; try again`
          : `${context.target} is unreachable (${code}): ${errorMessage(error)}`,
        {
          details: { cause: code },
        },
      );
    case 'UND_ERR_DESTROYED':
      return closedWhileRunning(context.target, code);
    case 'UND_ERR_INVALID_ARG':
      return fail('CONFIG_INVALID', `the request to ${context.target} is malformed: ${errorMessage(error)}`);
    default:
      return fail('EXECUTION_FAILED', `the request to ${context.target} failed: ${errorMessage(error)}`, {
        ...(code ? { details: { cause: code } } : {}),
      });
  }
}

/** The failure of a call whose provider was closed while it ran. */
function closedWhileRunning(target: string, cause?: string): ToolResult {
  return fail(
    'PROVIDER_UNAVAILABLE',
    `the call to ${target} was stopped because its provider was closed while it ran`,
    {
      retryable: false,
      ...(cause === undefined ? {} : { details: { cause } }),
    },
  );
}
