import { type ApprovalDecision, createId, errorMessage } from '@toolplane/core';
import type { McpProviderEvent } from '../lifecycle/events.js';
import { INTERNAL_ERROR, INVALID_PARAMS, ServerRequestRefusal } from './refusal.js';
import type { SamplingMessage, SamplingOptions, SamplingRequest, SamplingResult } from './types.js';

/** Defaults of {@link SamplingOptions}. */
export const SAMPLING_DEFAULTS = {
  maxTokensPerSession: 100_000,
  approvalTimeoutMs: 120_000,
  maxRequestBytes: 1024 * 1024,
} as const;
/** MCP's code for a request the user (or the client's policy) refused. */
const REFUSED = -1;
const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}...` : text);

function refused(server: string, why: string): ServerRequestRefusal {
  return new ServerRequestRefusal(REFUSED, `sampling refused for MCP server "${server}": ${why}`);
}

/** The text a person reads of a message (its text content, clipped). */
function preview(message: SamplingMessage | undefined): string {
  const content = message?.content as { type?: unknown; text?: unknown } | undefined;
  if (content?.type === 'text' && typeof content.text === 'string') return clip(content.text, 1000);
  return content?.type === undefined ? '' : `(${String(content.type)} content)`;
}

/** A sampling request read from the server's params, or a refusal saying what is wrong. */
function requestOf(server: string, params: Record<string, unknown>, maxBytes: number): SamplingRequest {
  const { messages, maxTokens, systemPrompt } = params;
  if (!Array.isArray(messages) || messages.length === 0)
    throw new ServerRequestRefusal(INVALID_PARAMS, 'sampling refused: "messages" must be a non-empty list');
  if (typeof maxTokens !== 'number' || !Number.isSafeInteger(maxTokens) || maxTokens < 1)
    throw new ServerRequestRefusal(
      INVALID_PARAMS,
      'sampling refused: "maxTokens" must be a whole number of 1 or more',
    );
  if (params.tools !== undefined || params.toolChoice !== undefined)
    throw new ServerRequestRefusal(
      INVALID_PARAMS,
      'sampling refused: this client does not offer tools in sampling',
    );
  const bytes = Buffer.byteLength(JSON.stringify([messages, systemPrompt ?? '']));
  if (bytes > maxBytes)
    throw refused(server, `the request is ${bytes} bytes, more than maxRequestBytes (${maxBytes})`);
  for (const message of messages as SamplingMessage[]) {
    if (
      message === null ||
      typeof message !== 'object' ||
      (message.role !== 'user' && message.role !== 'assistant')
    )
      throw new ServerRequestRefusal(
        INVALID_PARAMS,
        'sampling refused: each message needs role "user" or "assistant"',
      );
  }
  return {
    server,
    messages: messages as SamplingMessage[],
    maxTokens,
    ...(typeof systemPrompt === 'string' ? { systemPrompt } : {}),
    ...(typeof params.temperature === 'number' ? { temperature: params.temperature } : {}),
    ...(Array.isArray(params.stopSequences)
      ? { stopSequences: params.stopSequences.filter((each): each is string => typeof each === 'string') }
      : {}),
    ...(params.modelPreferences && typeof params.modelPreferences === 'object'
      ? { modelPreferences: params.modelPreferences as Record<string, unknown> }
      : {}),
  };
}

/**
 * Sampling under a policy, one per provider: each request is asked about through the approval
 * channel (unless `requireApproval: false`; `allow-always` stops the questions for this provider)
 * and counted against a token budget (a request's `maxTokens` is held while it runs, then what
 * the handler reports it spent, else `maxTokens`). A refusal says why and what to change.
 */
export class SamplingPolicy {
  private spent = 0;
  private held = 0;
  private alwaysAllowed = false;
  private readonly budget: number;

  constructor(
    private readonly server: string,
    private readonly options: SamplingOptions,
    private readonly emit: (event: McpProviderEvent) => void,
  ) {
    this.budget = options.maxTokensPerSession ?? SAMPLING_DEFAULTS.maxTokensPerSession;
  }

  /** Tokens spent so far. */
  get tokensSpent(): number {
    return this.spent;
  }

  private async approve(request: SamplingRequest, signal: AbortSignal): Promise<void> {
    if (this.options.requireApproval === false || this.alwaysAllowed) return;
    const approvals = this.options.approvals;
    if (!approvals) {
      throw refused(
        this.server,
        'sampling asks for approval and no approval channel is configured; give sampling.approvals, or set sampling.requireApproval to false to allow it unasked',
      );
    }
    const timeoutMs = this.options.approvalTimeoutMs ?? SAMPLING_DEFAULTS.approvalTimeoutMs;
    const waited = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
    let decision: ApprovalDecision;
    try {
      decision = await approvals.request(
        {
          id: createId('sampling'),
          tool: 'sampling/createMessage',
          args: {
            server: this.server,
            maxTokens: request.maxTokens,
            messages: request.messages.length,
            lastMessage: preview(request.messages.at(-1)),
            ...(request.systemPrompt === undefined ? {} : { systemPrompt: clip(request.systemPrompt, 1000) }),
          },
          risk: 'high',
          reason: `MCP server "${this.server}" asks for a model completion of up to ${request.maxTokens} tokens`,
          principal: {},
          sessionId: `mcp:${this.server}`,
          timeoutMs,
        },
        waited,
      );
    } catch (error) {
      if (waited.aborted && !signal.aborted)
        throw refused(this.server, `not approved within ${timeoutMs} ms`);
      throw refused(this.server, `the approval failed: ${clip(errorMessage(error), 200)}`);
    }
    if (decision === 'allow-always') this.alwaysAllowed = true;
    else if (decision !== 'allow-once') throw refused(this.server, 'the request was denied');
  }

  /** Answers one `sampling/createMessage`. */
  async answer(params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    const maxBytes = this.options.maxRequestBytes ?? SAMPLING_DEFAULTS.maxRequestBytes;
    const request = requestOf(this.server, params, maxBytes);
    const left = this.budget - this.spent - this.held;
    if (request.maxTokens > left) {
      throw refused(
        this.server,
        `its ${request.maxTokens} tokens exceed what is left of the budget (${Math.max(left, 0)} of ${this.budget}, sampling.maxTokensPerSession)`,
      );
    }
    this.held += request.maxTokens;
    let result: SamplingResult;
    let used = request.maxTokens;
    try {
      await this.approve(request, signal);
      try {
        result = await this.options.handler.createMessage(request, signal);
      } catch (error) {
        throw new ServerRequestRefusal(
          INTERNAL_ERROR,
          `sampling failed on the client: ${clip(errorMessage(error), 300)}`,
        );
      }
      const reported = result?.usage?.totalTokens;
      if (typeof reported === 'number' && Number.isFinite(reported) && reported >= 0) used = reported;
    } catch (error) {
      used = 0;
      throw error;
    } finally {
      this.held -= request.maxTokens;
      this.spent += used;
    }
    const text = result?.content?.type === 'text' ? result.content.text : undefined;
    if (typeof text !== 'string' || typeof result.model !== 'string')
      throw new ServerRequestRefusal(
        INTERNAL_ERROR,
        'sampling failed on the client: the handler returned no text',
      );
    this.emit({ type: 'sampling-answered', server: this.server, model: result.model, tokens: used });
    return {
      model: result.model,
      role: 'assistant',
      content: { type: 'text', text },
      ...(result.stopReason === undefined ? {} : { stopReason: result.stopReason }),
    };
  }
}
