import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicTools } from '../../src/anthropic/index.js';
import { type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';
import { PIXEL_PNG, createTestOrchestrator } from '../helpers/tools.js';

function message(content: unknown[], stop: string) {
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'scripted',
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('Anthropic adapter', () => {
  it('runs a round trip: tool_use blocks in, tool_result blocks with an image and an error out, the answer back', async () => {
    const { orchestrator, calls } = await createTestOrchestrator();
    server = await startScriptedServer((request, turn) => {
      if (turn === 0)
        return message(
          [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_use', id: 'toolu_1', name: 'media__chart', input: { title: 'q3' } },
            { type: 'tool_use', id: 'toolu_2', name: 'media__broken', input: {} },
          ],
          'tool_use',
        );
      const messages = request.body.messages as {
        role: string;
        content: { type: string; is_error?: boolean }[];
      }[];
      const results = messages.at(-1)?.content ?? [];
      return message(
        [{ type: 'text', text: `results: ${results.map((r) => (r.is_error ? 'error' : 'ok')).join(',')}` }],
        'end_turn',
      );
    });
    const client = new Anthropic({ baseURL: server.url, apiKey: `test-${Math.random()}` });
    const toolset = createAnthropicTools(orchestrator);
    const messages: MessageParam[] = [{ role: 'user', content: 'Chart q3' }];
    const first = await client.messages.create({
      model: 'scripted',
      max_tokens: 100,
      messages,
      tools: toolset.tools,
    });
    const results = await toolset.handleToolUse(first);
    messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: results });
    const second = await client.messages.create({
      model: 'scripted',
      max_tokens: 100,
      messages,
      tools: toolset.tools,
    });

    expect(second.content[0]).toMatchObject({ type: 'text', text: 'results: ok,error' });
    expect(calls.map((c) => c.tool)).toEqual(['chart', 'broken']);
    expect(results).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: [
          { type: 'text', text: 'chart q3' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL_PNG } },
        ],
      },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_2',
        is_error: true,
        content: 'ERROR EXECUTION_FAILED: the disk is full: free some space and retry',
      },
    ]);
    const sent = server.requests[0]?.body.tools as { name: string; input_schema: Record<string, unknown> }[];
    expect(sent.find((t) => t.name === 'weather__forecast')?.input_schema).toMatchObject({
      type: 'object',
      required: ['city'],
    });
    await orchestrator.close();
  });
});
