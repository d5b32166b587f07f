import type { ApprovalChannel } from '@toolplane/core';

/**
 * What an MCP server may ask of this client while it works (elicitation, sampling, roots), and
 * who answers. Each is offered to a server (declared as a client capability) only when configured.
 */

/** A value a person may give in an elicitation form. */
export type ElicitationValue = string | number | boolean | readonly string[];

/** One choice of an enum field; `title` is what a person reads, `value` what is sent. */
export interface ElicitationOption {
  readonly value: string;
  readonly title: string;
}

/** One field of a form, read from the server's `requestedSchema` (see `elicitationFields`). */
export interface ElicitationField {
  readonly name: string;
  readonly title: string;
  readonly description?: string;
  /** `choice`: one of `options`; `choices`: any number of them (multi-select). */
  readonly kind: 'string' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  readonly required: boolean;
  readonly default?: ElicitationValue;
  readonly options?: readonly ElicitationOption[];
  /** `email`, `uri`, `date`, `date-time` for strings. */
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
}

/** A form to fill: the server's message and its fields, defaults included. */
export interface ElicitationFormRequest {
  readonly mode: 'form';
  readonly server: string;
  readonly message: string;
  readonly fields: readonly ElicitationField[];
  /** The schema as the server sent it. */
  readonly requestedSchema: Readonly<Record<string, unknown>>;
}

/** A page to open outside the client (URL mode, protocol 2025-11-25 and later). */
export interface ElicitationUrlRequest {
  readonly mode: 'url';
  readonly server: string;
  readonly message: string;
  readonly url: string;
  readonly elicitationId: string;
}

export type ElicitationRequest = ElicitationFormRequest | ElicitationUrlRequest;

/**
 * The answer: `accept` with the values (form mode; fields left out get their defaults), or
 * `decline` (said no) or `cancel` (dismissed without choosing).
 */
export type ElicitationAnswer =
  | { readonly action: 'accept'; readonly content?: Readonly<Record<string, ElicitationValue>> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/**
 * Where a server's questions for a person go: a terminal prompt, a UI, the client of a gateway.
 * It sits next to the approval channel (`ApprovalChannel` in core).
 *
 * @example
 * const channel: ElicitationChannel = {
 *   modes: ['form'],
 *   async elicit(request) {
 *     return { action: 'accept', content: await askPerson(request.fields) };
 *   },
 * };
 */
export interface ElicitationChannel {
  /** The modes it can answer; default `['form']`. */
  readonly modes?: readonly ('form' | 'url')[];
  /** Resolves with the answer; `signal` aborts when the server cancels or the session ends. */
  elicit(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer>;
}

/** A message of a sampling request or result, as MCP sends it (text, image or audio content). */
export interface SamplingMessage {
  readonly role: 'user' | 'assistant';
  readonly content: unknown;
}

/** A server's request for a model completion (`sampling/createMessage`). */
export interface SamplingRequest {
  readonly server: string;
  readonly messages: readonly SamplingMessage[];
  readonly systemPrompt?: string;
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  readonly modelPreferences?: Readonly<Record<string, unknown>>;
}

/** A completion; `usage` (tokens spent) is counted against the session's budget when given. */
export interface SamplingResult {
  readonly model: string;
  readonly role: 'assistant';
  readonly content: { readonly type: 'text'; readonly text: string };
  readonly stopReason?: string;
  readonly usage?: { readonly totalTokens: number };
}

/** Whatever produces completions: an OpenAI-compatible endpoint, a local model, a gateway's client. */
export interface SamplingHandler {
  createMessage(request: SamplingRequest, signal: AbortSignal): Promise<SamplingResult>;
}

/** The policy sampling runs under (see {@link McpClientFeatures.sampling}). */
export interface SamplingOptions {
  readonly handler: SamplingHandler;
  /**
   * Asked before each request (default). Without it, and with `requireApproval` left on, every
   * request is refused with a message saying so.
   */
  readonly approvals?: ApprovalChannel;
  /** Default true: every request is asked about first. */
  readonly requireApproval?: boolean;
  /** How long an approval question may wait. Default 120 000 ms. */
  readonly approvalTimeoutMs?: number;
  /**
   * Tokens the server may spend through this provider (all its sessions and restarts). A request
   * whose `maxTokens` exceeds what is left is refused. Default 100 000.
   */
  readonly maxTokensPerSession?: number;
  /** Largest request (its messages and system prompt as JSON). Default 1 MiB. */
  readonly maxRequestBytes?: number;
}

/** A workspace folder offered as a root. */
export interface McpRoot {
  readonly uri: string;
  readonly name?: string;
}

/** The roots offered to servers, which can change (see `createMcpRoots`). */
export interface McpRootsSource {
  list(): readonly McpRoot[];
  /** Calls `listener` after every change; returns a function that stops it. */
  subscribe(listener: () => void): () => void;
}
