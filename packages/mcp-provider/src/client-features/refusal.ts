/** JSON-RPC error codes a refusal is sent with. */
export const INVALID_PARAMS = -32602;
export const METHOD_NOT_FOUND = -32601;
export const INTERNAL_ERROR = -32603;

/**
 * A server's request refused with a JSON-RPC error the server reads: what was wrong and what to
 * do. Both SDK clients send a thrown error's `code` and `message` back as the answer.
 */
export class ServerRequestRefusal extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.name = 'ServerRequestRefusal';
    this.code = code;
  }
}
