import { describe, expect, it } from 'vitest';
import type { ScriptedReply } from '../src/testing/index.js';
import { agent, call, lastText, report, setup } from './helpers.js';

/** The root runs agent__bad once and reports what the call returned; the child's turns follow `child`. */
async function throughChild(
  child: (turn: number) => ScriptedReply,
  runner = {},
): Promise<{ root: string; childRequests: number; rootStatus: string }> {
  await using h = await setup({
    agents: [agent('bad')],
    runner: { requestTimeoutMs: 10_000, idleTimeoutMs: 5_000, maxResponseBytes: 64 * 1024, ...runner },
    scripts: {
      'root-model': (turn, request) =>
        turn === 0 ? call('agent__bad', { task: 'try' }) : report(`root heard: ${lastText(request)}`),
      'bad-model': (turn, request) =>
        turn === 0 ? child(turn) : turn === 1 ? report(`child heard: ${lastText(request)}`) : undefined,
    },
  });
  const outcome = await h.manager.runAgent({ task: 'go' });
  return {
    root: outcome.report?.content ?? '',
    childRequests: h.model.requests.filter((r) => r.model === 'bad-model').length,
    rootStatus: outcome.status,
  };
}

describe('bad model output: each a clear error, the parent keeps working', () => {
  it('answers a tool call without a name with INVALID_ARGUMENTS, and the child goes on', async () => {
    const seen = await throughChild(() => ({
      raw: {
        choices: [
          {
            message: {
              role: 'assistant',
              tool_calls: [{ id: 'c1', type: 'function', function: { arguments: '{}' } }],
            },
          },
        ],
      },
    }));
    expect(seen.root).toBe(
      'root heard: child heard: INVALID_ARGUMENTS: malformed tool call: a tool call without a function name; send a function name and JSON object arguments',
    );
  });

  it('answers a streamed tool call without a function object the same way', async () => {
    const seen = await throughChild(() => ({
      sse: [
        JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c1' }] } }] }),
        '[DONE]',
      ],
    }));
    expect(seen.root).toContain(
      'child heard: INVALID_ARGUMENTS: malformed tool call: a tool call without a function name',
    );
  });

  it('answers an unknown tool with TOOL_NOT_FOUND naming the tools it has', async () => {
    const seen = await throughChild(() => call('no_such_tool', {}));
    expect(seen.root).toMatch(
      /child heard: TOOL_NOT_FOUND: "no_such_tool" is not one of your tools; you have: .*t__echo/,
    );
  });

  it('answers arguments that are not JSON with INVALID_ARGUMENTS', async () => {
    const seen = await throughChild(() => ({
      toolCalls: [{ name: 't__echo', arguments: '{"text": "unterminated' }],
    }));
    expect(seen.root).toMatch(
      /child heard: INVALID_ARGUMENTS: the arguments of t__echo are not valid JSON \(.+\); send one JSON object/,
    );
  });

  it('answers arguments that fail the schema with the orchestrator message', async () => {
    const seen = await throughChild(() => call('t__echo', { text: 42 }));
    expect(seen.root).toMatch(/child heard: INVALID_ARGUMENTS: .*text/);
  });

  it('fails the child when tool_calls is not a list', async () => {
    const seen = await throughChild(() => ({
      raw: { choices: [{ message: { role: 'assistant', tool_calls: 'oops' } }] },
    }));
    expect(seen.root).toMatch(
      /^root heard: EXECUTION_FAILED: subagent "bad" \(sub_[^)]+\) failed: the model endpoint answered with tool_calls that are not a list$/,
    );
    expect(seen.rootStatus).toBe('completed');
  });

  it('fails the child on a body that is not JSON', async () => {
    const seen = await throughChild(() => ({ raw: 'this is not json' }), { stream: false });
    expect(seen.root).toMatch(/EXECUTION_FAILED: .*answered with text that is not JSON: this is not json/);
  });

  it('stops an endless stream at maxResponseBytes', async () => {
    const seen = await throughChild(() => ({ endless: true }));
    expect(seen.root).toMatch(/EXECUTION_FAILED: .*passed 65536 bytes \(maxResponseBytes\) without ending/);
    expect(seen.rootStatus).toBe('completed');
  });

  it('reports a 500 as PROVIDER_UNAVAILABLE with the body, after its retries', async () => {
    const seen = await throughChild(
      () => ({ error: 500, body: '{"error":{"message":"upstream exploded"}}' }),
      { maxRetries: 1, retryDelayMs: 1 },
    );
    expect(seen.root).toMatch(
      /PROVIDER_UNAVAILABLE: .*the model endpoint failed \(HTTP 500\): .*upstream exploded/,
    );
    expect(seen.childRequests).toBe(2);
  });

  it('reports a hang as TIMEOUT naming the setting', async () => {
    const seen = await throughChild(() => ({ hang: true }), { requestTimeoutMs: 300, idleTimeoutMs: 60_000 });
    expect(seen.root).toMatch(/TIMEOUT: .*did not finish answering within 300 ms \(requestTimeoutMs\)/);
  });

  it('reports a stream that goes silent as TIMEOUT naming idleTimeoutMs', async () => {
    const seen = await throughChild(
      () => ({ sse: [JSON.stringify({ choices: [{ index: 0, delta: { content: 'hm' } }] })], hold: true }),
      { idleTimeoutMs: 300 },
    );
    expect(seen.root).toMatch(/TIMEOUT: .*sent nothing for 300 ms \(idleTimeoutMs\)/);
  });

  it('takes a stream that ends without [DONE] as it is', async () => {
    const seen = await throughChild(() => ({
      sse: [JSON.stringify({ choices: [{ index: 0, delta: { content: 'hm' } }] })],
    }));
    expect(seen.root).toBe('root heard: hm');
  });

  it('reports a 401 as CONFIG_INVALID naming the key setting', async () => {
    const seen = await throughChild(() => ({ error: 401 }));
    expect(seen.root).toMatch(/CONFIG_INVALID: .*refused the key \(HTTP 401\).*OPENAI_API_KEY/);
  });
});
