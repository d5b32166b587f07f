import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The JSON-RPC messages in one frame or line: an object with `"jsonrpc": "2.0"`, or a batch
 * (an array of them, which 2025-03 peers may send). Only the envelope is checked here: the
 * client (SDK 1.x or the v2 client) checks the rest with its own schemas, so a message of the
 * other protocol generation (an error with `id: null`, a 2026-era field) still reaches it.
 * Throws for anything else.
 */
export function parseEnvelope(text: string): JSONRPCMessage[] {
  const parsed: unknown = JSON.parse(text);
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  if (messages.length === 0) throw new Error('an empty JSON-RPC batch');
  for (const message of messages) {
    if (
      typeof message !== 'object' ||
      message === null ||
      (message as { jsonrpc?: unknown }).jsonrpc !== '2.0'
    )
      throw new Error('not a JSON-RPC 2.0 message (no "jsonrpc": "2.0")');
  }
  return messages as JSONRPCMessage[];
}
