import { randomBytes } from 'node:crypto';
import { type Server, createServer } from 'node:http';

/** One request the scripted endpoint received. */
export interface ChatRequest {
  readonly authorization: string | undefined;
  readonly body: {
    model?: string;
    max_tokens?: number;
    messages?: Array<{ role: string; content: unknown }>;
  };
}

/** A scripted OpenAI-compatible chat completions server on 127.0.0.1. */
export interface ScriptedOpenAi {
  readonly baseUrl: string;
  /** A key generated for this run; other keys get 401. */
  readonly apiKey: string;
  readonly requests: ChatRequest[];
  close(): Promise<void>;
}

/**
 * Answers `POST /v1/chat/completions` with `reply(request)` (default: "echo: <last user text>"),
 * reporting `tokens` as `usage.total_tokens`.
 */
export async function startScriptedOpenAi(tokens = 42): Promise<ScriptedOpenAi> {
  const apiKey = `test-${randomBytes(12).toString('hex')}`;
  const requests: ChatRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return void res.writeHead(404).end();
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest['body'];
    requests.push({ authorization: req.headers.authorization, body });
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      return void res
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"error":{"message":"bad key"}}');
    }
    const last = body.messages?.at(-1)?.content;
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: `echo: ${String(last)}` },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: tokens - 2, completion_tokens: 2, total_tokens: tokens },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
