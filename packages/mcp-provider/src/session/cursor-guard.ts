import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { MAX_CURSOR_LENGTH, cursorTooLong } from '../tools/cursor.js';
import { keyOf } from './late-answers.js';

type Fields = Record<string, unknown>;

/** List requests followed at most (one never answered is forgotten once this many are newer). */
const FOLLOWED = 1_024;

/**
 * From now on, an answer to a list request (`tools/list`, `resources/list`, any `.../list`)
 * whose `nextCursor` is longer than `MAX_CURSOR_LENGTH` reaches the client as a JSON-RPC error
 * that says so, and the cursor is dropped. Both SDK clients send a cursor back whole, and the v2
 * client walks every page of a listing itself (up to 64), so a bound in the provider's own
 * paging alone would not hold it back.
 */
export function guardCursors(transport: Transport): void {
  const lists = new Map<unknown, string>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const fields = message as Fields;
    if (typeof fields.method === 'string' && fields.method.endsWith('/list') && fields.id !== undefined) {
      lists.set(keyOf(fields.id), fields.method);
      if (lists.size > FOLLOWED) lists.delete(lists.keys().next().value);
    }
    return send(message, options);
  };
  const client = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const fields: unknown = message;
    if (lists.size === 0 || typeof fields !== 'object' || fields === null || Array.isArray(fields))
      return client?.(message, extra);
    const { id, method: notification, result } = fields as Fields;
    const key = keyOf(id);
    const method = notification === undefined ? lists.get(key) : undefined;
    if (method === undefined) return client?.(message, extra);
    lists.delete(key);
    const cursor = typeof result === 'object' && result !== null ? (result as Fields).nextCursor : undefined;
    if (typeof cursor !== 'string' || cursor.length <= MAX_CURSOR_LENGTH) return client?.(message, extra);
    const refused = {
      jsonrpc: '2.0',
      id,
      error: { code: -32603, message: cursorTooLong(method, cursor.length) },
    };
    client?.(refused as typeof message, extra);
  };
}
