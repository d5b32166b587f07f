import { ToolError, type ToolErrorCode, errorMessage } from '@toolplane/core';
import { type ModelMessage, StreamAssembler, readCompletion } from './completion.js';
import { SseParser } from './sse.js';

/** How the runner reaches the endpoint; every field is resolved before a run starts. */
export interface ChatClientSettings {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly fetch: typeof fetch;
  readonly stream: boolean;
  readonly requestTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly maxResponseBytes: number;
  readonly maxRetries: number;
  readonly retryDelayMs: number;
}

const RETRYABLE: ReadonlySet<ToolErrorCode> = new Set<ToolErrorCode>([
  'PROVIDER_UNAVAILABLE',
  'RATE_LIMITED',
]);

function statusError(status: number, text: string): ToolError {
  const excerpt = text.replace(/\s+/g, ' ').trim().slice(0, 300);
  const said = excerpt === '' ? '' : `: ${excerpt}`;
  if (status === 401 || status === 403) {
    return new ToolError(
      'CONFIG_INVALID',
      `the model endpoint refused the key (HTTP ${status})${said}; check apiKey or OPENAI_API_KEY`,
    );
  }
  if (status === 429)
    return new ToolError('RATE_LIMITED', `the model endpoint is rate limiting (HTTP 429)${said}`);
  if (status >= 500)
    return new ToolError('PROVIDER_UNAVAILABLE', `the model endpoint failed (HTTP ${status})${said}`);
  return new ToolError('EXECUTION_FAILED', `the model endpoint refused the request (HTTP ${status})${said}`, {
    retryable: false,
  });
}

/** Stops one request: the run's signal, the whole-request deadline and the idle gap between chunks. */
class RequestStop {
  readonly controller = new AbortController();
  private readonly deadline: ReturnType<typeof setTimeout>;
  private idle: ReturnType<typeof setTimeout> | undefined;
  private readonly unlisten: () => void;
  reason: ToolError | undefined;

  constructor(
    private readonly settings: ChatClientSettings,
    runSignal: AbortSignal,
  ) {
    const onRunAbort = (): void =>
      this.stop(new ToolError('CANCELLED', 'the run was cancelled during a model request'));
    if (runSignal.aborted) onRunAbort();
    runSignal.addEventListener('abort', onRunAbort, { once: true });
    this.unlisten = () => runSignal.removeEventListener('abort', onRunAbort);
    this.deadline = setTimeout(
      () =>
        this.stop(
          new ToolError(
            'TIMEOUT',
            `the model endpoint did not finish answering within ${settings.requestTimeoutMs} ms (requestTimeoutMs)`,
          ),
        ),
      settings.requestTimeoutMs,
    );
    this.touch();
  }

  /** Restarts the idle timer: something arrived. */
  touch(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(
      () =>
        this.stop(
          new ToolError(
            'TIMEOUT',
            `the model endpoint sent nothing for ${this.settings.idleTimeoutMs} ms (idleTimeoutMs)`,
          ),
        ),
      this.settings.idleTimeoutMs,
    );
  }

  stop(reason: ToolError): void {
    if (this.reason) return;
    this.reason = reason;
    this.controller.abort(reason);
  }

  dispose(): void {
    clearTimeout(this.deadline);
    if (this.idle) clearTimeout(this.idle);
    this.unlisten();
  }
}

async function readBounded(
  response: Response,
  stop: RequestStop,
  max: number,
  onText?: (text: string) => void,
): Promise<string> {
  const body = response.body;
  if (!body) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      stop.touch();
      bytes += value.byteLength;
      if (bytes > max) {
        stop.stop(
          new ToolError(
            'EXECUTION_FAILED',
            `the model's answer passed ${max} bytes (maxResponseBytes) without ending; the request was stopped`,
          ),
        );
        break;
      }
      const piece = decoder.decode(value, { stream: true });
      if (onText) onText(piece);
      else text += piece;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  if (stop.reason) throw stop.reason;
  const rest = decoder.decode();
  if (onText) {
    if (rest) onText(rest);
  } else text += rest;
  return text;
}

async function once(
  settings: ChatClientSettings,
  body: Record<string, unknown>,
  signal: AbortSignal,
  onDelta: (text: string) => void,
): Promise<ModelMessage> {
  const stop = new RequestStop(settings, signal);
  try {
    let response: Response;
    try {
      response = await settings.fetch(`${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: settings.stream ? 'text/event-stream' : 'application/json',
          ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
          ...settings.headers,
        },
        body: JSON.stringify(
          settings.stream ? { ...body, stream: true, stream_options: { include_usage: true } } : body,
        ),
        signal: stop.controller.signal,
      });
    } catch (error) {
      if (stop.reason) throw stop.reason;
      throw new ToolError(
        'PROVIDER_UNAVAILABLE',
        `cannot reach the model endpoint ${settings.baseUrl}: ${errorMessage(error)}`,
        { cause: error },
      );
    }
    stop.touch();
    if (!response.ok) {
      const text = await readBounded(response, stop, 64 * 1024).catch(() => '');
      throw statusError(response.status, text);
    }
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream')) {
      const text = await readBounded(response, stop, settings.maxResponseBytes);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new ToolError(
          'EXECUTION_FAILED',
          `the model endpoint answered with text that is not JSON: ${text.slice(0, 200)}`,
        );
      }
      return readCompletion(parsed);
    }
    const parser = new SseParser();
    const assembler = new StreamAssembler();
    let finished = false;
    const take = (payloads: string[]): void => {
      for (const payload of payloads) {
        if (finished) return;
        if (payload.trim() === '[DONE]') {
          finished = true;
          stop.controller.abort();
          return;
        }
        let chunk: unknown;
        try {
          chunk = JSON.parse(payload);
        } catch {
          throw new ToolError(
            'EXECUTION_FAILED',
            `the model endpoint streamed a chunk that is not JSON: ${payload.slice(0, 200)}`,
          );
        }
        const error = (chunk as { error?: { message?: unknown } } | null)?.error;
        if (error)
          throw new ToolError(
            'PROVIDER_UNAVAILABLE',
            `the model endpoint streamed an error: ${errorMessage(error.message ?? error)}`,
          );
        const added = assembler.push(chunk);
        if (added) onDelta(added);
      }
    };
    try {
      await readBounded(response, stop, settings.maxResponseBytes, (text) => take(parser.push(text)));
    } catch (error) {
      if (!finished) throw error;
    }
    if (!finished) take(parser.end());
    return assembler.finish();
  } catch (error) {
    if (ToolError.isInstance(error)) throw error;
    if (stop.reason) throw stop.reason;
    throw error;
  } finally {
    stop.dispose();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new ToolError('CANCELLED', 'the run was cancelled'));
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new ToolError('CANCELLED', 'the run was cancelled'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * One chat completion, streamed or not, with retries of 429 and 5xx answers and of connection
 * failures. Rejects with a `ToolError` that says what the endpoint did.
 */
export async function requestCompletion(
  settings: ChatClientSettings,
  body: Record<string, unknown>,
  signal: AbortSignal,
  onDelta: (text: string) => void,
): Promise<ModelMessage> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await once(settings, body, signal, onDelta);
    } catch (error) {
      const code = ToolError.isInstance(error) ? error.code : 'EXECUTION_FAILED';
      if (signal.aborted) throw new ToolError('CANCELLED', 'the run was cancelled during a model request');
      if (!RETRYABLE.has(code) || attempt >= settings.maxRetries) {
        if (ToolError.isInstance(error)) throw error;
        throw new ToolError('EXECUTION_FAILED', `the model request failed: ${errorMessage(error)}`, {
          cause: error,
        });
      }
      await sleep(settings.retryDelayMs * 2 ** attempt, signal);
    }
  }
}
