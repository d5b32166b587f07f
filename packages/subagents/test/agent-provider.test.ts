import { describe, expect, it } from 'vitest';
import { type AgentRunner, checkDefinition, createAgentRegistry } from '../src/index.js';
import { agent, report, setup } from './helpers.js';

describe('definitions and agent__{name} tools', () => {
  it('lists one agent__{name} tool per definition, with the default or the given input schema', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    await using h = await setup({
      agents: [agent('researcher'), agent('weather', { inputSchema: schema })],
      scripts: {},
    });
    await h.orchestrator.warmup();
    const specs = h.orchestrator.listTools().filter((spec) => spec.name.startsWith('agent__'));
    expect(specs.map((spec) => spec.name)).toEqual(['agent__researcher', 'agent__weather']);
    expect(specs[0]?.inputSchema).toMatchObject({ required: ['task'] });
    expect(specs[1]?.inputSchema).toEqual(schema);
    expect(specs[0]?.description).toContain('the researcher agent');
  });

  it('validates arguments against the input schema and hands them to the child as its task', async () => {
    await using h = await setup({
      agents: [
        agent('weather', {
          inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        }),
      ],
      scripts: { 'weather-model': (_turn, request) => report(String(request.messages[1]?.content)) },
    });
    const bad = await h.orchestrator.call('agent__weather', { town: 'x' }, { session: { id: 'app' } });
    expect(!bad.ok && bad.error.code).toBe('INVALID_ARGUMENTS');
    const good = await h.orchestrator.call('agent__weather', { city: 'Oslo' }, { session: { id: 'app' } });
    expect(good.ok && good.content[0]).toEqual({ type: 'text', text: 'Input:\n{\n  "city": "Oslo"\n}' });
    expect(h.model.requests[0]?.messages[0]).toEqual({ role: 'system', content: 'You are weather.' });
  });

  it('follows registry changes with a new tool list', async () => {
    await using h = await setup({ agents: [agent('one')], scripts: {} });
    await h.orchestrator.warmup();
    h.manager.agents.define(agent('two'));
    await h.orchestrator.warmup();
    for (let i = 0; i < 100 && !h.orchestrator.hasTool('agent__two'); i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(h.orchestrator.hasTool('agent__two')).toBe(true);
  });

  it("runs a definition with its own runner, whose tool calls go through the manager's gate", async () => {
    const custom: AgentRunner = {
      specificationVersion: 'v1',
      async run(request) {
        const echoed = await request.callTool('t__echo', { text: request.task });
        const hidden = await request.callTool('t__write_note', { text: 'no' });
        const content = `${echoed.ok ? 'echo ok' : 'echo failed'}, ${hidden.ok ? 'write ok' : hidden.error.code}`;
        return {
          report: { status: 'success', format: 'text', content, ts: 0 },
          iterations: 0,
          usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        };
      },
    };
    await using h = await setup({
      agents: [agent('custom', { runner: custom, tools: { deny: ['t__write_note'] } })],
      scripts: {},
    });
    const result = await h.orchestrator.call('agent__custom', { task: 'hi' }, { session: { id: 'app' } });
    expect(result.ok && result.content[0]).toEqual({ type: 'text', text: 'echo ok, TOOL_NOT_FOUND' });
    expect(h.model.requests).toHaveLength(0);
  });

  it('refuses bad definitions with CONFIG_INVALID naming the field', () => {
    expect(() => checkDefinition({ name: 'has space', description: 'd', systemPrompt: 's' })).toThrow(
      /name must match/,
    );
    expect(() => checkDefinition({ name: 'final_report', description: 'd', systemPrompt: 's' })).toThrow(
      /reserved/,
    );
    expect(() => checkDefinition({ name: 'a', description: '', systemPrompt: 's' })).toThrow(/description/);
    expect(() =>
      checkDefinition({ name: 'a', description: 'd', systemPrompt: 's', inputSchema: { type: 'string' } }),
    ).toThrow(/type "object"/);
    expect(() =>
      checkDefinition({
        name: 'a',
        description: 'd',
        systemPrompt: 's',
        output: { schema: { $ref: '#/nowhere' } },
      }),
    ).toThrow(/output.schema does not compile/);
    expect(() => createAgentRegistry([agent('x'), agent('x')])).toThrow(/two agents are named "x"/);
  });
});
