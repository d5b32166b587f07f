/** The longest session id (or parent session id) a call or a view may carry. */
export const MAX_SESSION_ID_LENGTH = 256;

/** The session of calls that name none. */
export const DEFAULT_SESSION_ID = 'default';

/** What a refused call is recorded under when its session id cannot be used. */
export const INVALID_SESSION_ID = '(invalid session id)';

const ID_RULE = `a non-empty string of at most ${MAX_SESSION_ID_LENGTH} characters (leave it out for the "${DEFAULT_SESSION_ID}" session)`;

/**
 * Why a session given to a call or a view cannot be used, or undefined when it can: it is an
 * object whose `id` and `parentId` (when present) are non-empty strings of bounded length (an
 * id keys trees, budgets, rate limits and stored outputs: '' or 42 would be a session nobody
 * meant, a megabyte string a megabyte per key) and whose `depth` is a whole number of 0 or more
 * (policy limits child agents by it).
 */
export function sessionProblem(session: unknown, where: string): string | undefined {
  if (session === undefined) return undefined;
  if (typeof session !== 'object' || session === null || Array.isArray(session)) {
    const got = session === null ? 'null' : Array.isArray(session) ? 'an array' : typeof session;
    return `session of ${where} must be an object { id, depth?, parentId?, mode? }; got ${got}`;
  }
  const { id, depth, parentId } = session as { id?: unknown; depth?: unknown; parentId?: unknown };
  if (id !== undefined && !isSessionId(id))
    return `session.id of ${where} must be ${ID_RULE}; got ${kindOf(id)}`;
  if (depth !== undefined && !(typeof depth === 'number' && Number.isInteger(depth) && depth >= 0)) {
    return `session.depth of ${where} must be a whole number of 0 or more; got ${shown(depth)}`;
  }
  if (parentId !== undefined && !isSessionId(parentId)) {
    return `session.parentId of ${where} must be ${ID_RULE}; got ${kindOf(parentId)}`;
  }
  return undefined;
}

/** The principal fields core names, each a non-empty string when present. */
const PRINCIPAL_FIELDS = ['agentId', 'userId', 'channel', 'tenantId'] as const;

/**
 * A frozen plain copy of a principal given to a call or a view, or why it cannot be used: an
 * object (policy reads who calls from its fields; a string or a number would make every rule
 * miss) whose `agentId`, `userId`, `channel` and `tenantId` are non-empty strings of bounded
 * length when present, and whose fields can be read. Its fields are read once, here: a getter
 * or a Proxy that throws is the caller's bad input, never a later `filterTools` or middleware
 * failing on it.
 */
export function copiedPrincipal(
  principal: unknown,
  where: string,
): Readonly<Record<string, unknown>> | string {
  if (typeof principal !== 'object' || principal === null || Array.isArray(principal)) {
    const got = principal === null ? 'null' : Array.isArray(principal) ? 'an array' : typeof principal;
    return `principal of ${where} must be an object such as { agentId: "coder" }, or left out; got ${got}`;
  }
  const copy: Record<string, unknown> = {};
  try {
    // defined, not assigned: an own `__proto__` key (JSON.parse makes them) stays a field, rather
    // than becoming the copy's prototype, through which `agentId` and the rest would be read
    for (const key in principal) {
      const value: unknown = (principal as Record<string, unknown>)[key];
      Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
    }
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return `principal of ${where} cannot be read (${why.slice(0, 200)}); pass a plain object such as { agentId: "coder" }`;
  }
  for (const field of PRINCIPAL_FIELDS) {
    const value = copy[field];
    if (value !== undefined && !isSessionId(value))
      return `principal.${field} of ${where} must be a non-empty string of at most ${MAX_SESSION_ID_LENGTH} characters, or left out; got ${kindOf(value)}`;
  }
  return Object.freeze(copy);
}

/** Whether a call id can be used as given (a non-empty string of bounded length). */
export function isCallId(value: unknown): value is string {
  return isSessionId(value);
}

/** Why a call's own `callId` cannot be used, or undefined when it can (or is left out). */
export function callIdProblem(callId: unknown, where: string): string | undefined {
  if (callId === undefined || isCallId(callId)) return undefined;
  return `callId of ${where} must be a non-empty string of at most ${MAX_SESSION_ID_LENGTH} characters (leave it out for a generated one); got ${kindOf(callId)}`;
}

/** The session id a call is recorded under (before its session was checked). */
export function recordedSessionId(session: unknown): string {
  const id: unknown = (session as { id?: unknown } | null | undefined)?.id;
  if (id === undefined) return DEFAULT_SESSION_ID;
  return isSessionId(id) ? id : INVALID_SESSION_ID;
}

function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_SESSION_ID_LENGTH;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value === '' ? 'an empty string' : `${value.length} characters`;
  if (typeof value === 'number') return `number ${value}`;
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

function shown(value: unknown): string {
  if (typeof value === 'number') return String(value);
  try {
    return (JSON.stringify(value) ?? typeof value).slice(0, 100);
  } catch {
    return typeof value;
  }
}
