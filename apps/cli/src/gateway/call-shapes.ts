// Hand checks for the messages of the gateway's tools/call fast path (see call-fast-path.ts).
// Each answers "the SDK's schema accepts this value and gives it back unchanged" or "not
// sure"; a value it is not sure of goes the SDK's way, through the schema itself, so the
// verdict (and any error text) is always the schema's. test/gateway-call-shapes.test.ts runs
// the checks and the schemas side by side on valid and invalid messages.

type Fields = Record<string, unknown>;

/** A JSON object (a plain one, as `JSON.parse` makes) that a zod schema copies without loss. */
function plainObject(value: unknown): value is Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return (
    Object.getPrototypeOf(value) === Object.prototype &&
    // a copy made by assignment takes a "__proto__" key (JSON allows one) as its prototype
    !Object.hasOwn(value, '__proto__')
  );
}

/** Whether every own key of `fields` is one of `allowed` and none holds `undefined`. */
function onlyKeys(fields: Fields, allowed: readonly string[]): boolean {
  for (const key in fields) {
    if (!allowed.includes(key) || fields[key] === undefined) return false;
  }
  return true;
}

/** What the SDK's `RequestIdSchema` and `ProgressTokenSchema` take: a string or a safe integer. */
function idLike(value: unknown): boolean {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

const REQUEST_KEYS = ['jsonrpc', 'id', 'method', 'params'] as const;
const CALL_PARAMS_KEYS = ['name', 'arguments', '_meta'] as const;
const META_KEYS = ['progressToken'] as const;

/** A request's `_meta` with nothing but a progress token (no related task). */
function plainRequestMeta(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!plainObject(meta) || !onlyKeys(meta, META_KEYS)) return false;
  return meta.progressToken === undefined || idLike(meta.progressToken);
}

/**
 * A `tools/call` request that `JSONRPCMessageSchema` and `CallToolRequestSchema` both accept and
 * return unchanged: `jsonrpc` "2.0", a string or safe-integer id, a string tool name, arguments
 * that are an object, `_meta` with at most a progress token, and no other key (no task
 * augmentation, no related task). False means "ask the schemas", not "invalid".
 */
export function isPlainToolsCall(message: unknown): boolean {
  if (!plainObject(message) || !onlyKeys(message, REQUEST_KEYS)) return false;
  if (message.jsonrpc !== '2.0' || message.method !== 'tools/call' || !idLike(message.id)) return false;
  const params = message.params;
  if (!plainObject(params) || !onlyKeys(params, CALL_PARAMS_KEYS)) return false;
  if (typeof params.name !== 'string') return false;
  if (params.arguments !== undefined && !plainObject(params.arguments)) return false;
  return plainRequestMeta(params._meta);
}

const RESULT_KEYS = ['content', 'structuredContent', 'isError', '_meta'] as const;
const TEXT_KEYS = ['type', 'text'] as const;

/** A text block without annotations or `_meta` (other blocks are left to the schema). */
function plainTextBlock(block: unknown): boolean {
  return (
    plainObject(block) &&
    onlyKeys(block, TEXT_KEYS) &&
    block.type === 'text' &&
    typeof block.text === 'string'
  );
}

/**
 * A `tools/call` result that `CallToolResultSchema` accepts and returns unchanged: content of
 * plain text blocks (present: the schema adds a missing one), structured content that is an
 * object, a boolean `isError`, and `_meta` of the gateway's own keys (none the schema reads).
 * False means "ask the schema", not "invalid".
 */
export function isPlainCallResult(result: unknown): boolean {
  if (!plainObject(result) || !onlyKeys(result, RESULT_KEYS)) return false;
  const content = result.content;
  if (!Array.isArray(content)) return false;
  for (const block of content) if (!plainTextBlock(block)) return false;
  if (result.structuredContent !== undefined && !plainObject(result.structuredContent)) return false;
  if (result.isError !== undefined && typeof result.isError !== 'boolean') return false;
  const meta = result._meta;
  if (meta === undefined) return true;
  return (
    plainObject(meta) &&
    !Object.hasOwn(meta, 'progressToken') &&
    !Object.hasOwn(meta, 'io.modelcontextprotocol/related-task')
  );
}
