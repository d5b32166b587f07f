import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { DirectChannel } from './direct-calls.js';

/** A transport plus what the provider wants to know about it. */
export interface TransportHandle {
  readonly transport: Transport;
  /** `stdio`, `http`, `sse` or `websocket`. */
  readonly kind: string;
  /** Recent stderr (stdio) or last transport error, for error messages. */
  diagnostics(): string;
  readonly pid?: number;
  /** Present when the transport lets the provider send `tools/call` itself (see DirectCalls). */
  readonly direct?: DirectChannel;
  /** Rejects when the transport gave up on the server for good (a message over the size bound). */
  readonly fatal?: Promise<never>;
}
