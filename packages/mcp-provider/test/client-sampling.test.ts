// Sampling from a real SDK server during a tool call, answered by an OpenAI-compatible endpoint
// (a scripted one on 127.0.0.1), on both clients over stdio and streamable HTTP: approval first
// by default, a token budget per provider, clear refusals.
import type { ApprovalChannel, ApprovalDecision, ApprovalRequest } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiSampler } from '../src/index.js';
import { PATHS, askingHttpServer, askingProvider, callText } from './helpers/asking-providers.js';
import { eventLog, tempDirectory } from './helpers/index.js';
import { type ScriptedOpenAi, startScriptedOpenAi } from './helpers/openai-server.js';

const run = tempDirectory();
const http = askingHttpServer();
let model: ScriptedOpenAi;
beforeAll(async () => {
  [model] = await Promise.all([startScriptedOpenAi(42), http.start()]);
}, 30_000);
afterAll(async () => {
  await Promise.all([http.close(), model.close()]);
  run.remove();
});

function approvals(decision: ApprovalDecision): ApprovalChannel & { asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return {
    asked,
    async request(request) {
      asked.push(request);
      return decision;
    },
  };
}

const sampler = () => createOpenAiSampler({ baseUrl: model.baseUrl, apiKey: model.apiKey, model: 'tiny' });

for (const path of PATHS) {
  describe(`sampling (client ${path.client}, ${path.transport})`, () => {
    it('asks for approval, then answers from the OpenAI-compatible endpoint', async () => {
      const channel = approvals('allow-once');
      const log = eventLog();
      const before = model.requests.length;
      const provider = await askingProvider(path, http.url, {
        runDirectory: run.path,
        sampling: { handler: sampler(), approvals: channel },
        onEvent: log.onEvent,
      });
      try {
        expect(JSON.parse(await callText(provider, 'capabilities'))).toEqual({ sampling: {} });
        const [answer] = JSON.parse(await callText(provider, 'sample', { prompt: 'hello', maxTokens: 50 }));
        expect(answer).toEqual({
          model: 'tiny',
          role: 'assistant',
          content: { type: 'text', text: 'echo: hello' },
          stopReason: 'endTurn',
        });
        expect(channel.asked).toHaveLength(1);
        expect(channel.asked[0]).toEqual(
          expect.objectContaining({
            tool: 'sampling/createMessage',
            risk: 'high',
            args: expect.objectContaining({ server: 'asks', maxTokens: 50, lastMessage: 'hello' }),
          }),
        );
        const sent = model.requests.slice(before);
        expect(sent).toHaveLength(1);
        expect(sent[0]?.authorization).toBe(`Bearer ${model.apiKey}`);
        expect(sent[0]?.body).toEqual(
          expect.objectContaining({
            model: 'tiny',
            max_tokens: 50,
            messages: [
              { role: 'system', content: 'Be brief.' },
              { role: 'user', content: 'hello' },
            ],
          }),
        );
        expect(log.events).toContainEqual({
          type: 'sampling-answered',
          server: 'asks',
          model: 'tiny',
          tokens: 42,
        });
      } finally {
        await provider.close?.();
      }
    }, 60_000);

    it('refuses without an approval channel, and when denied, saying what to change', async () => {
      const unasked = await askingProvider(path, http.url, {
        runDirectory: run.path,
        sampling: { handler: sampler() },
      });
      const denied = await askingProvider(path, http.url, {
        runDirectory: run.path,
        sampling: { handler: sampler(), approvals: approvals('deny') },
      });
      const before = model.requests.length;
      try {
        const [refused] = JSON.parse(await callText(unasked, 'sample', { prompt: 'x', maxTokens: 5 }));
        expect(refused).toMatch(/^error -1 .*no approval channel is configured; give sampling\.approvals/);
        const [no] = JSON.parse(await callText(denied, 'sample', { prompt: 'x', maxTokens: 5 }));
        expect(no).toMatch(/^error -1 .*sampling refused for MCP server "asks": the request was denied/);
        expect(model.requests.length).toBe(before);
      } finally {
        await Promise.all([unasked.close?.(), denied.close?.()]);
      }
    }, 60_000);

    it('counts the tokens spent against the budget and refuses past it; allow-always stops asking', async () => {
      const channel = approvals('allow-always');
      const provider = await askingProvider(path, http.url, {
        runDirectory: run.path,
        sampling: { handler: sampler(), approvals: channel, maxTokensPerSession: 100 },
      });
      try {
        const answers = JSON.parse(
          await callText(provider, 'sample', { prompt: 'loop', maxTokens: 40, times: 4 }),
        );
        expect(
          answers.slice(0, 2).map((answer: { content: { text: string } }) => answer.content.text),
        ).toEqual(['echo: loop', 'echo: loop']);
        // 42 + 42 spent: 16 left, and 40 asked for
        expect(answers[2]).toMatch(
          /^error -1 .*exceed what is left of the budget \(16 of 100, sampling\.maxTokensPerSession\)/,
        );
        expect(answers[3]).toMatch(/budget/);
        expect(channel.asked).toHaveLength(1);
      } finally {
        await provider.close?.();
      }
    }, 60_000);
  });
}

describe('sampling without a handler, and an endpoint that refuses', () => {
  it('is declined at once without a handler, and an endpoint error reaches the server without the key', async () => {
    const bare = await askingProvider(PATHS[0], http.url, { runDirectory: run.path });
    const wrongKey = await askingProvider(PATHS[0], http.url, {
      runDirectory: run.path,
      sampling: {
        handler: createOpenAiSampler({
          baseUrl: model.baseUrl,
          apiKey: `${model.apiKey}-wrong`,
          model: 'tiny',
        }),
        requireApproval: false,
      },
    });
    try {
      const [declined] = JSON.parse(await callText(bare, 'sample', { prompt: 'x', maxTokens: 5 }));
      expect(declined).toMatch(/^error -32601 .*no sampling handler is configured/);
      const [failed] = JSON.parse(await callText(wrongKey, 'sample', { prompt: 'x', maxTokens: 5 }));
      expect(failed).toMatch(/sampling failed on the client: the model endpoint answered HTTP 401/);
      expect(failed).not.toContain(model.apiKey);
    } finally {
      await Promise.all([bare.close?.(), wrongKey.close?.()]);
    }
  }, 60_000);
});
