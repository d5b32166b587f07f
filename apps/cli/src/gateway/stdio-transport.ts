import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Writable } from 'node:stream';
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { isPlainToolsCall } from './call-shapes.js';

/** The longest line (one message) the stdio gateway reads: the SDK's own stdio buffer limit. */
export const MAX_STDIO_MESSAGE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;

function describeBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/** The id an answer to a broken request can carry: the request's own, when it has a usable one. */
function recoverableId(value: unknown): string | number | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('method' in value))
    return null;
  const id = (value as { id?: unknown }).id;
  if (typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id))) return id;
  return null;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** Why a parsed JSON value is not a JSON-RPC 2.0 message, in words a client's author can act on. */
function whyNotMessage(value: unknown): string {
  if (typeof value !== 'object' || value === null)
    return `a message is a JSON object, got ${typeName(value)}`;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return '"jsonrpc" must be "2.0"';
  if ('method' in message && typeof message.method !== 'string') return '"method" must be a string';
  if (
    'params' in message &&
    (typeof message.params !== 'object' || message.params === null || Array.isArray(message.params))
  )
    return '"params" must be an object';
  if ('id' in message && !(typeof message.id === 'string' || Number.isInteger(message.id)))
    return '"id" must be a string or an integer';
  if (!('method' in message) && !('result' in message) && !('error' in message))
    return 'a message needs a "method" (request or notification) or a "result" or "error" (response)';
  return 'it is not a valid MCP request, notification or response';
}

/**
 * MCP over stdin/stdout, one JSON-RPC message per line, for the gateway. Unlike the SDK's
 * `StdioServerTransport`, which drops a line that is not a JSON-RPC message without an answer
 * and closes itself on a line over its buffer limit, every such line is answered as JSON-RPC
 * 2.0 says (`-32700` parse error, `-32600` invalid request; `id` null unless the request's own
 * id can be read) and the transport keeps serving. A line over `maxMessageBytes` is refused
 * when it crosses the limit and the rest of it is skipped unread, so memory stays bounded.
 * Blank lines are not messages and are skipped. When stdout fails or closes (the client closed
 * its end), the transport closes: requests nobody can get answers to are not run. While stdout
 * is full (a client that does not read its answers), requests are not read either.
 */
export class GatewayStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private pieces: Buffer[] = [];
  private pendingBytes = 0;
  /** Skipping the rest of a line that was already refused as too long. */
  private skipping = false;
  private started = false;
  /** Reading paused until stdout drains. */
  private held = false;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly maxMessageBytes = MAX_STDIO_MESSAGE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start < bytes.length && !this.closed) {
      const end = bytes.indexOf(NEWLINE, start);
      const piece = bytes.subarray(start, end === -1 ? bytes.length : end);
      if (!this.skipping) {
        this.pendingBytes += piece.length;
        if (this.pendingBytes > this.maxMessageBytes) {
          this.pieces = [];
          this.pendingBytes = 0;
          this.skipping = true;
          this.refuse(
            ErrorCode.InvalidRequest,
            `Invalid Request: the message is longer than ${describeBytes(this.maxMessageBytes)}, the gateway's limit for one line; it was skipped`,
          );
        } else if (piece.length > 0) this.pieces.push(piece);
      }
      if (end === -1) return;
      if (this.skipping) this.skipping = false;
      else this.readLine();
      start = end + 1;
    }
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  /** The client closed its end of stdout: no answer can reach it, so stop reading requests. */
  private readonly onOutputGone = (): void => {
    void this.close();
  };

  private readLine(): void {
    const line = Buffer.concat(this.pieces, this.pendingBytes);
    this.pieces = [];
    this.pendingBytes = 0;
    let text: string;
    try {
      text = this.decoder.decode(line);
    } catch {
      this.refuse(ErrorCode.ParseError, 'Parse error: the line is not valid UTF-8');
      return;
    }
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.refuse(ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
      return;
    }
    if (Array.isArray(value)) {
      this.refuse(
        ErrorCode.InvalidRequest,
        'Invalid Request: JSON-RPC batches are not supported by MCP; send one message per line',
      );
      return;
    }
    // a plain tools/call is one the schema accepts unchanged (see call-shapes.ts)
    const parsed = isPlainToolsCall(value)
      ? { success: true as const, data: value as JSONRPCMessage }
      : JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      this.refuse(ErrorCode.InvalidRequest, `Invalid Request: ${whyNotMessage(value)}`, recoverableId(value));
      return;
    }
    try {
      this.onmessage?.(parsed.data);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  /** Answers a line that is not a message; never through `send`, which callers may wrap. */
  private refuse(code: number, message: string, id: string | number | null = null): void {
    this.write({ jsonrpc: '2.0', id, error: { code, message } }).catch((error: Error) =>
      this.onerror?.(error),
    );
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed) {
        reject(new Error('the stdio transport is closed'));
        return;
      }
      this.corkForTick();
      const flushed = this.output.write(`${JSON.stringify(message)}\n`, (error) =>
        error ? reject(error) : resolve(),
      );
      if (!flushed) this.holdInput();
    });
  }

  /**
   * Answers finished in one tick leave in one write (one `writev` on a pipe) instead of one
   * system call each: with many calls in flight, a write per message was the gateway's largest
   * cost. The stream is uncorked on the next tick, so no answer waits longer than that.
   */
  private corkForTick(): void {
    const output = this.output as NodeJS.WritableStream &
      Partial<Pick<Writable, 'cork' | 'uncork' | 'writableCorked'>>;
    if (!output.cork || !output.uncork || output.writableCorked) return;
    output.cork();
    process.nextTick(() => output.uncork?.());
  }

  /**
   * stdout is full (the client is not reading its answers): stop reading requests until it
   * drains, so answers nobody reads do not pile up in memory without limit.
   */
  private holdInput(): void {
    if (this.held) return;
    this.held = true;
    this.input.pause();
    this.output.once('drain', this.onOutputDrained);
  }

  private readonly onOutputDrained = (): void => {
    this.held = false;
    if (!this.closed) this.input.resume();
  };

  async start(): Promise<void> {
    if (this.started) throw new Error('the stdio transport is already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.output.on('error', this.onOutputGone);
    this.output.on('close', this.onOutputGone);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.output.off('error', this.onOutputGone);
    this.output.off('close', this.onOutputGone);
    this.output.off('drain', this.onOutputDrained);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.pieces = [];
    this.pendingBytes = 0;
    this.onclose?.();
  }
}
