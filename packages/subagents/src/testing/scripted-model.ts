import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Token counts a scripted reply reports (OpenAI's `usage`). */
export interface ScriptedUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
}

/** One scripted tool call; `arguments` as an object is sent as JSON, as a string exactly as given. */
export interface ScriptedToolCall {
  readonly name: string;
  readonly arguments?: unknown;
  readonly id?: string;
}

/** What the scripted model answers to one request. */
export type ScriptedReply =
  | {
      /** Assistant text. */
      readonly text?: string;
      readonly toolCalls?: readonly ScriptedToolCall[];
      readonly usage?: ScriptedUsage;
      /** Force streaming on or off (default: what the request asked). */
      readonly stream?: boolean;
      /** Wait before answering. */
      readonly delayMs?: number;
    }
  /** A JSON body sent as is (malformed completions). */
  | { readonly raw: unknown; readonly status?: number }
  /** Server-sent event payloads sent as is (no `[DONE]` unless listed); `hold` keeps the stream open after them. */
  | { readonly sse: readonly string[]; readonly hold?: boolean }
  /** An HTTP error status with a body. */
  | { readonly error: number; readonly body?: string }
  /** Accepts the request and never answers. */
  | { readonly hang: true }
  /** Streams text chunks without end, until the client goes away. */
  | { readonly endless: true };

/** A request as the scripted model received it. */
export interface RecordedRequest {
  readonly model: string;
  readonly stream: boolean;
  readonly messages: readonly Record<string, unknown>[];
  readonly tools: readonly { readonly function: { readonly name: string } }[];
  readonly toolChoice: unknown;
  readonly body: Record<string, unknown>;
  readonly authorization?: string;
}

/** Options of {@link startScriptedModel}. */
export interface ScriptedModelOptions {
  /** Replies by model id, in order; `*` serves any model whose own list is empty. */
  readonly replies?: Readonly<Record<string, readonly ScriptedReply[]>>;
  /** Decides a reply from the request (before the lists); undefined falls through to them. */
  readonly respond?: (request: RecordedRequest) => ScriptedReply | undefined;
}

/** A running scripted model: an OpenAI-compatible Chat Completions server on 127.0.0.1. */
export interface ScriptedModel extends AsyncDisposable {
  /** The base URL to give a runner (`http://127.0.0.1:<port>/v1`). */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Answers the client closed before they ended (a cancelled model request). */
  readonly closedEarly: number;
  /** Adds replies for a model (`*` for any). */
  enqueue(model: string, ...replies: ScriptedReply[]): void;
  /** Resolves once `count` requests have arrived; rejects after `timeoutMs` (default 10 000). */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

let ids = 0;

function chunk(model: string, delta: Record<string, unknown>, finish: string | null = null): string {
  return JSON.stringify({
    id: 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created: 0,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
}

function toolCallsOf(calls: readonly ScriptedToolCall[]): { id: string; name: string; args: string }[] {
  return calls.map((call) => {
    ids++;
    return {
      id: call.id ?? `call_scripted_${ids}`,
      name: call.name,
      args: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    };
  });
}

function usageOf(usage: ScriptedUsage | undefined): Record<string, number> {
  const prompt = usage?.prompt_tokens ?? 10;
  const completion = usage?.completion_tokens ?? 5;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/**
 * Starts a scripted OpenAI-compatible model on loopback, for tests of agent loops: it replies
 * from a script (text, tool calls, streamed or not, errors, hangs, endless streams) and
 * records every request.
 *
 * @example
 * await using model = await startScriptedModel({ replies: { 'test-model': [{ text: 'hello' }] } });
 * const runner = createOpenAIRunner({ baseUrl: model.url, model: 'test-model' });
 */
export async function startScriptedModel(options: ScriptedModelOptions = {}): Promise<ScriptedModel> {
  const queues = new Map<string, ScriptedReply[]>();
  for (const [model, replies] of Object.entries(options.replies ?? {})) queues.set(model, [...replies]);
  const requests: RecordedRequest[] = [];
  const waiters = new Set<() => void>();
  const open = new Set<ServerResponse>();
  let closedEarly = 0;

  const next = (request: RecordedRequest): ScriptedReply | undefined => {
    const chosen = options.respond?.(request);
    if (chosen) return chosen;
    const own = queues.get(request.model);
    if (own && own.length > 0) return own.shift();
    return queues.get('*')?.shift();
  };

  const answer = async (
    reply: ScriptedReply,
    request: RecordedRequest,
    res: ServerResponse,
  ): Promise<void> => {
    if ('hang' in reply) return;
    if ('error' in reply) {
      res.writeHead(reply.error, { 'content-type': 'application/json' });
      res.end(reply.body ?? JSON.stringify({ error: { message: `scripted error ${reply.error}` } }));
      return;
    }
    if ('raw' in reply) {
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(typeof reply.raw === 'string' ? reply.raw : JSON.stringify(reply.raw));
      return;
    }
    if ('sse' in reply) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const payload of reply.sse) res.write(`data: ${payload}\n\n`);
      if (!reply.hold) res.end();
      return;
    }
    if ('endless' in reply) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const piece = `data: ${chunk(request.model, { content: 'more ' })}\n\n`;
      // bounded by the client: it stops reading at its maxResponseBytes or timeout and closes
      for (let sent = 0; sent < 1_000_000 && !res.destroyed; sent++) {
        if (!res.write(piece))
          await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
      }
      res.end();
      return;
    }
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
    const calls = toolCallsOf(reply.toolCalls ?? []);
    const usage = usageOf(reply.usage);
    const text = reply.text ?? '';
    const stream = reply.stream ?? request.stream;
    if (!stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-scripted',
          object: 'chat.completion',
          created: 0,
          model: request.model,
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: text === '' ? null : text,
                ...(calls.length > 0
                  ? {
                      tool_calls: calls.map((c) => ({
                        id: c.id,
                        type: 'function',
                        function: { name: c.name, arguments: c.args },
                      })),
                    }
                  : {}),
              },
              finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
            },
          ],
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (payload: string): void => {
      res.write(`data: ${payload}\n\n`);
    };
    send(chunk(request.model, { role: 'assistant', content: '' }));
    for (let at = 0; at < text.length; at += 8)
      send(chunk(request.model, { content: text.slice(at, at + 8) }));
    calls.forEach((call, index) => {
      const half = Math.floor(call.args.length / 2);
      send(
        chunk(request.model, {
          tool_calls: [
            {
              index,
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: call.args.slice(0, half) },
            },
          ],
        }),
      );
      send(chunk(request.model, { tool_calls: [{ index, function: { arguments: call.args.slice(half) } }] }));
    });
    send(chunk(request.model, {}, calls.length > 0 ? 'tool_calls' : 'stop'));
    send(
      JSON.stringify({
        id: 'chatcmpl-scripted',
        object: 'chat.completion.chunk',
        created: 0,
        model: request.model,
        choices: [],
        usage,
      }),
    );
    send('[DONE]');
    res.end();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    open.add(res);
    res.on('close', () => {
      open.delete(res);
      if (!res.writableFinished) closedEarly++;
    });
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'the body is not JSON' } }));
      return;
    }
    const request: RecordedRequest = {
      model: String(body.model),
      stream: body.stream === true,
      messages: (body.messages as Record<string, unknown>[]) ?? [],
      tools: (body.tools as RecordedRequest['tools']) ?? [],
      toolChoice: body.tool_choice,
      body,
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    };
    requests.push(request);
    for (const wake of [...waiters]) wake();
    const reply = next(request);
    if (!reply) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: `scripted model: no reply left for model "${request.model}"` } }),
      );
      return;
    }
    await answer(reply, request, res);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
    return closing;
  };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get closedEarly() {
      return closedEarly;
    },
    enqueue(model, ...replies) {
      const list = queues.get(model) ?? [];
      list.push(...replies);
      queues.set(model, list);
    },
    waitForRequests(count, timeoutMs = 10_000) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `scripted model: ${requests.length} of ${count} requests arrived within ${timeoutMs} ms`,
            ),
          );
        }, timeoutMs);
        const check = (): void => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
