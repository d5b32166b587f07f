import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ClientRequestSchema, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { isPlainToolsCall } from './call-shapes.js';

interface RequestSchema {
  readonly shape: { readonly method: { readonly value: string } };
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
  };
}

/** The schema of each request a client may send, by method. */
export const SCHEMAS: ReadonlyMap<string, RequestSchema> = new Map(
  (ClientRequestSchema.options as unknown as readonly RequestSchema[]).map((schema) => [
    schema.shape.method.value,
    schema,
  ]),
);

/** Zod's issues in one line: `params.name: Invalid input: expected string, received number`. */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const shown = issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(message)'}: ${issue.message}`);
  return `${shown.join('; ')}${issues.length > 3 ? ` (and ${issues.length - 3} more)` : ''}`;
}

/**
 * A `tools/call` whose arguments have a `"__proto__"` key (JSON text can hold one): the SDK server
 * copies the arguments into a new object by assignment, which takes that key as the copy's
 * prototype, so the argument would be dropped without a word (and the call run without it).
 * Keys inside argument values are carried as they are.
 */
function protoArgument(message: object): string | undefined {
  const params = (message as { method?: unknown; params?: { arguments?: unknown } }).params;
  const args = params?.arguments;
  if ((message as { method?: unknown }).method !== 'tools/call') return undefined;
  if (typeof args !== 'object' || args === null || !Object.hasOwn(args, '__proto__')) return undefined;
  return 'params.arguments: the key "__proto__" cannot be carried (a JavaScript object takes it as its prototype, so it would be dropped): rename it';
}

/**
 * Answers a request whose params do not fit its method (`initialize` without `protocolVersion`,
 * `tools/call` with a number as `name`) with JSON-RPC's `-32602 Invalid params`, naming the
 * fields, instead of handing it to the SDK server, which answers `-32603` (an internal error)
 * with zod's issue list as a many-line message; and a `tools/call` whose arguments have a
 * `"__proto__"` key, which the SDK would drop. Call after `server.connect(transport)`; the
 * answer goes through `transport.send` as it is then (so wrappers such as the pending-request
 * tracker see it).
 */
export function refuseInvalidParams(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    // a plain tools/call is one the schema accepts unchanged (see call-shapes.ts)
    const schema =
      'method' in message && 'id' in message && !isPlainToolsCall(message)
        ? SCHEMAS.get(message.method)
        : undefined;
    const parsed = schema?.safeParse(message);
    const problem =
      parsed && !parsed.success
        ? describeIssues(parsed.error?.issues ?? [])
        : parsed
          ? protoArgument(message)
          : undefined;
    if (problem === undefined || !('id' in message)) {
      deliver.call(transport, message, extra);
      return;
    }
    void transport
      .send(
        {
          jsonrpc: '2.0',
          id: message.id,
          error: {
            code: ErrorCode.InvalidParams,
            message: `Invalid params: ${problem}`,
          },
        },
        { relatedRequestId: message.id },
      )
      .catch(() => {});
  };
}
