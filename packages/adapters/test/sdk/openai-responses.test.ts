import OpenAI from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIResponsesTools } from '../../src/openai/index.js';
import { type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';
import { PIXEL_PNG, createTestOrchestrator } from '../helpers/tools.js';

function response(output: unknown[]) {
  return { id: 'resp_1', object: 'response', created_at: 0, model: 'scripted', status: 'completed', output };
}

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('OpenAI Responses adapter', () => {
  it('runs a round trip with function_call items in and function_call_output items (with an image) out', async () => {
    const { orchestrator, calls } = await createTestOrchestrator();
    server = await startScriptedServer((request, turn) => {
      if (turn === 0)
        return response([
          {
            type: 'function_call',
            id: 'fc_1',
            call_id: 'call_9',
            name: 'media__chart',
            arguments: '{"title":"sales"}',
            status: 'completed',
          },
        ]);
      const input = request.body.input as { type?: string; output?: unknown }[];
      const out = input.find((item) => item.type === 'function_call_output');
      return response([
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [
            { type: 'output_text', text: `got ${JSON.stringify(out?.output).length} chars`, annotations: [] },
          ],
        },
      ]);
    });
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: `test-${Math.random()}` });
    const toolset = createOpenAIResponsesTools(orchestrator);
    const first = await client.responses.create({
      model: 'scripted',
      input: 'Chart the sales',
      tools: toolset.tools,
    });
    const outputs = await toolset.handleOutput(first.output);
    const input: ResponseInputItem[] = [
      { role: 'user', content: 'Chart the sales' },
      ...(first.output as ResponseInputItem[]),
      ...outputs,
    ];
    const second = await client.responses.create({ model: 'scripted', input, tools: toolset.tools });

    expect(second.output_text).toMatch(/^got \d+ chars$/);
    expect(calls).toEqual([{ tool: 'chart', args: { title: 'sales' } }]);
    expect(outputs).toEqual([
      {
        type: 'function_call_output',
        call_id: 'call_9',
        output: [
          { type: 'input_text', text: 'chart sales' },
          { type: 'input_image', detail: 'auto', image_url: `data:image/png;base64,${PIXEL_PNG}` },
        ],
      },
    ]);
    const sent = server.requests[0]?.body.tools as { name: string; strict: boolean; type: string }[];
    expect(sent.map((t) => [t.type, t.name, t.strict])).toContainEqual(['function', 'media__chart', true]);
    await orchestrator.close();
  });
});
