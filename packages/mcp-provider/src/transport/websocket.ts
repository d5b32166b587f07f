import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '@toolplane/core';
import WebSocket from 'ws';
import { parseEnvelope } from './envelope.js';

/**
 * An MCP client transport over WebSocket (subprotocol `mcp`, one JSON-RPC message per text
 * frame), built on `ws` because Node 20 has no global `WebSocket` and the SDK's transport
 * needs one. Unlike the SDK's, it sends headers (auth) with the upgrade request.
 */
export class WebSocketClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private socket: WebSocket | undefined;
  private closed = false;

  constructor(
    private readonly url: URL,
    private readonly headers: Readonly<Record<string, string>> = {},
  ) {}

  start(): Promise<void> {
    if (this.socket) return Promise.reject(new Error('WebSocket transport already started'));
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url, 'mcp', {
        headers: { ...this.headers },
        maxPayload: 256 * 1024 * 1024,
      });
      this.socket = socket;
      let opened = false;
      socket.on('open', () => {
        opened = true;
        resolve();
      });
      socket.on('unexpected-response', (_request, response) => {
        reject(new Error(`WebSocket upgrade refused with HTTP ${response.statusCode}`));
        socket.terminate();
      });
      socket.on('error', (error) => {
        if (!opened) reject(error);
        else this.onerror?.(error);
      });
      socket.on('close', () => {
        if (this.closed) return;
        this.closed = true;
        this.onclose?.();
      });
      socket.on('message', (data, isBinary) => {
        let messages: JSONRPCMessage[];
        try {
          const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
          messages = parseEnvelope(text);
        } catch (error) {
          this.onerror?.(new Error(`malformed JSON-RPC message: ${errorMessage(error)}`));
          return;
        }
        for (const message of messages) this.onmessage?.(message);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN)
      return Promise.reject(new Error('WebSocket is not open'));
    return new Promise((resolve, reject) => {
      socket.send(JSON.stringify(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    const socket = this.socket;
    if (socket && socket.readyState !== WebSocket.CLOSED) socket.terminate();
    if (!this.closed) {
      this.closed = true;
      this.onclose?.();
    }
  }
}
