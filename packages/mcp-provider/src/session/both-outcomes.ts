import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

type Fields = Record<string, unknown>;

/** Whether `message` is a response that holds both `result` and `error` (JSON-RPC allows one). */
export function hasBothOutcomes(message: unknown): message is Fields {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return false;
  const fields = message as Fields;
  return fields.method === undefined && 'result' in fields && 'error' in fields;
}

/** What a session reports about such a response. */
export function bothOutcomesReport(id: unknown): string {
  const shown = JSON.stringify(id) ?? String(id);
  return `the server answered request ${shown.length > 100 ? `${shown.slice(0, 100)}...` : shown} with both "result" and "error" (JSON-RPC allows one): its error was taken`;
}

/**
 * From now on, a response with both `result` and `error` reaches the client as its error alone,
 * and is reported. The SDK clients refuse such a message as of no known type, and the request
 * it answers waited for its timeout; the provider's own stdio calls take the error too.
 */
export function takeErrorOfBoth(transport: Transport, report: (message: string) => void): void {
  const client = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const fields: unknown = message;
    if (!hasBothOutcomes(fields)) return client?.(message, extra);
    report(bothOutcomesReport(fields.id));
    const { result: _result, ...error } = fields;
    client?.(error as typeof message, extra);
  };
}
