/**
 * What a gateway needs of an upstream session beyond tools: its other requests (resources,
 * prompts, completion, logging) and its notifications, unchanged.
 */

/** Options of one passed-through request. */
export interface PassthroughRequestOptions {
  /** Aborting sends `notifications/cancelled` upstream. */
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** Asks the server for progress (a progress token of this request) and hears it. */
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** A notification from the server, as sent. */
export interface PassthroughNotification {
  readonly method: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/** One session's raw request channel. */
export interface McpPassthrough {
  /** The server's capabilities from `initialize`. */
  capabilities(): Readonly<Record<string, unknown>>;
  request(
    method: string,
    params: Record<string, unknown>,
    options: PassthroughRequestOptions,
  ): Promise<unknown>;
  /** Hears every notification the client does not handle itself; returns what stops it. */
  onNotification(listener: (notification: PassthroughNotification) => void): () => void;
}

/** A provider's upstream server as a gateway sees it, across restarts. */
export interface McpUpstream {
  readonly server: string;
  /** Capabilities of the running session (empty before the first start). */
  capabilities(): Readonly<Record<string, unknown>>;
  /** Sends one request on the running session (starting it if needed). */
  request(
    method: string,
    params: Record<string, unknown>,
    options?: PassthroughRequestOptions,
  ): Promise<unknown>;
  /** Hears the notifications of every session the provider opens; returns what stops it. */
  onNotification(listener: (notification: PassthroughNotification) => void): () => void;
}

/** Methods a gateway may pass through (anything else is refused before it is sent). */
export const PASSTHROUGH_METHODS = [
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
] as const;
export type PassthroughMethod = (typeof PASSTHROUGH_METHODS)[number];
