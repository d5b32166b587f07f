import { ToolError } from '@toolplane/core';
import type { SamplingHandler, SamplingMessage, SamplingRequest, SamplingResult } from './types.js';

/** Options of {@link createOpenAiSampler}. */
export interface OpenAiSamplerOptions {
  /** The API root, `https://api.openai.com/v1` or any compatible server's; `/chat/completions` is added. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`; left out when not given (a local server). */
  readonly apiKey?: string;
  readonly model: string;
  /** Largest response body read. Default 4 MiB. */
  readonly maxResponseBytes?: number;
  readonly fetch?: typeof fetch;
}

const STOP_REASONS: Readonly<Record<string, string>> = {
  stop: 'endTurn',
  length: 'maxTokens',
  content_filter: 'endTurn',
};

/** One MCP message as an OpenAI chat message (text, or an image for the user). */
function chatMessage(message: SamplingMessage): Record<string, unknown> {
  const content = message.content as { type?: unknown; text?: unknown; data?: unknown; mimeType?: unknown };
  if (content?.type === 'text' && typeof content.text === 'string')
    return { role: message.role, content: content.text };
  if (content?.type === 'image' && message.role === 'user' && typeof content.data === 'string') {
    const url = `data:${String(content.mimeType ?? 'image/png')};base64,${content.data}`;
    return { role: 'user', content: [{ type: 'image_url', image_url: { url } }] };
  }
  throw new Error(
    `the OpenAI-compatible sampler sends text, and images from the user; this message holds ${String(content?.type ?? 'nothing')}`,
  );
}

async function readBounded(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new Error(`the model endpoint's response exceeds ${maxBytes} bytes (maxResponseBytes)`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A sampling handler over an OpenAI-compatible chat completions endpoint (plain `fetch`): the
 * server's system prompt and messages go as chat messages, `maxTokens` as `max_tokens`, and the
 * reply's `usage.total_tokens` is what the budget counts. The key is never in an error message.
 *
 * @example
 * const handler = createOpenAiSampler({ baseUrl: 'http://127.0.0.1:8080/v1', apiKey, model: 'small' });
 */
export function createOpenAiSampler(options: OpenAiSamplerOptions): SamplingHandler {
  if (typeof options.baseUrl !== 'string' || !URL.canParse(options.baseUrl))
    throw new ToolError(
      'CONFIG_INVALID',
      'createOpenAiSampler: baseUrl must be a URL such as https://api.openai.com/v1',
    );
  if (typeof options.model !== 'string' || options.model === '')
    throw new ToolError('CONFIG_INVALID', 'createOpenAiSampler: model must name the model to use');
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const send = options.fetch ?? fetch;
  const maxBytes = options.maxResponseBytes ?? 4 * 1024 * 1024;
  return {
    async createMessage(request: SamplingRequest, signal: AbortSignal): Promise<SamplingResult> {
      const messages = [
        ...(request.systemPrompt ? [{ role: 'system', content: request.systemPrompt }] : []),
        ...request.messages.map(chatMessage),
      ];
      const response = await send(endpoint, {
        method: 'POST',
        signal,
        headers: {
          'content-type': 'application/json',
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: options.model,
          messages,
          max_tokens: request.maxTokens,
          ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
          ...(request.stopSequences?.length ? { stop: request.stopSequences } : {}),
        }),
      });
      const body = await readBounded(response, maxBytes);
      if (!response.ok) {
        throw new Error(`the model endpoint answered HTTP ${response.status}: ${body.slice(0, 300)}`);
      }
      let parsed: {
        model?: unknown;
        choices?: Array<{ message?: { content?: unknown }; finish_reason?: unknown }>;
        usage?: { total_tokens?: unknown };
      };
      try {
        parsed = JSON.parse(body);
      } catch {
        throw new Error('the model endpoint answered with something other than JSON');
      }
      const choice = parsed.choices?.[0];
      const text = choice?.message?.content;
      if (typeof text !== 'string') throw new Error('the model endpoint answered with no message text');
      const reason = typeof choice?.finish_reason === 'string' ? choice.finish_reason : undefined;
      const tokens = parsed.usage?.total_tokens;
      return {
        model: typeof parsed.model === 'string' ? parsed.model : options.model,
        role: 'assistant',
        content: { type: 'text', text },
        ...(reason === undefined ? {} : { stopReason: STOP_REASONS[reason] ?? reason }),
        ...(typeof tokens === 'number' ? { usage: { totalTokens: tokens } } : {}),
      };
    },
  };
}
