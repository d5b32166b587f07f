import { afterEach, describe, expect, it } from 'vitest';
import { type RegisteredTool, ToolError } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { VIEW, echo, filtering, testProvider, thrownBy } from '../helpers.js';

// A middleware's filterTools that throws, answers something other than registered tools, or
// changes what it is handed: listTools(view) refuses to list, the registry stays as it was.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

describe('a filterTools that throws or answers garbage', () => {
  it('a throw is CONFIG_INVALID naming the middleware; the orchestrator still serves', async () => {
    orchestrator = createOrchestrator();
    orchestrator.use(
      filtering('picky', () => {
        throw new TypeError("Cannot read properties of undefined (reading 'agentId')");
      }),
    );
    orchestrator.register(testProvider('t', { echo }));
    await orchestrator.warmup();
    const error = thrownBy(() => orchestrator?.listTools(VIEW));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('middleware "picky" (gate) filterTools threw');
    expect(error.message).toContain("reading 'agentId'");
    expect(error.message).toContain('fix or remove that middleware');
    expect(thrownBy(() => orchestrator?.listRegistered(VIEW)).code).toBe('CONFIG_INVALID');
    // nothing else broke: the full list, calls, and the same call again
    expect(orchestrator.listTools().map((tool) => tool.name)).toEqual(['batch', 'tool_output', 't__echo']);
    expect((await orchestrator.call('t__echo', { a: 1 })).ok).toBe(true);
    expect(thrownBy(() => orchestrator?.listTools(VIEW)).code).toBe('CONFIG_INVALID');
  });

  it('a thrown ToolError keeps its code (a filter may refuse a principal with DENIED)', async () => {
    orchestrator = createOrchestrator();
    orchestrator.use(
      filtering('gatekeeper', () => {
        throw new ToolError('DENIED', 'agent "coder" may not list tools');
      }),
    );
    await orchestrator.warmup();
    const error = thrownBy(() => orchestrator?.listTools(VIEW));
    expect(error.code).toBe('DENIED');
    expect(error.message).toContain('agent "coder" may not list tools');
  });

  it.each<[string, unknown, string]>([
    ['undefined', undefined, 'returned undefined, not an array of tools'],
    ['a string', 'all', 'returned string, not an array of tools'],
    ['an array with a number', [42], 'returned an array whose entry 0 is not a registered tool'],
    ['a promise', Promise.resolve([]), 'returned object, not an array of tools'],
  ])('an answer that is %s is CONFIG_INVALID', async (_what, answer, text) => {
    orchestrator = createOrchestrator();
    orchestrator.use(filtering('broken', () => answer as readonly RegisteredTool[]));
    await orchestrator.warmup();
    const error = thrownBy(() => orchestrator?.listTools(VIEW));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(`middleware "broken" (gate) filterTools ${text}`);
  });

  it('a filter that adds a tool nobody registered is CONFIG_INVALID', async () => {
    orchestrator = createOrchestrator();
    orchestrator.use(
      filtering('inventor', (tools) => [
        ...tools,
        {
          name: 'ghost',
          localName: 'ghost',
          spec: { name: 'ghost', description: 'x', inputSchema: { type: 'object' } },
          provider: { namespace: 'none', kind: 'local' },
        },
      ]),
    );
    orchestrator.register(testProvider('t', { echo }));
    await orchestrator.warmup();
    const error = thrownBy(() => orchestrator?.listTools(VIEW));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(
      'middleware "inventor" (gate) filterTools returned "ghost", which is no registered tool',
    );
  });

  it('a filter may hand back copies of registered tools (same names), say with shorter descriptions', async () => {
    orchestrator = createOrchestrator();
    orchestrator.use(
      filtering('terse', (tools) =>
        tools.map((tool) => ({ ...tool, spec: { ...tool.spec, description: 'short' } })),
      ),
    );
    orchestrator.register(testProvider('t', { echo }));
    await orchestrator.warmup();
    expect(orchestrator.listTools(VIEW).find((tool) => tool.name === 't__echo')?.description).toBe('short');
  });

  it('a filter that changes the array it is given cannot change the registry', async () => {
    orchestrator = createOrchestrator();
    orchestrator.use(
      filtering('in-place', (tools) => {
        (tools as RegisteredTool[]).splice(0, tools.length);
        return tools;
      }),
    );
    orchestrator.register(testProvider('t', { echo }));
    await orchestrator.warmup();
    // the list it is given is frozen: its change throws, which names it
    const error = thrownBy(() => orchestrator?.listTools(VIEW));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('middleware "in-place" (gate) filterTools threw');
    // the registry's own list is untouched: later listings are whole
    expect(orchestrator.listTools().map((tool) => tool.name)).toEqual(['batch', 'tool_output', 't__echo']);
    expect(orchestrator.listRegistered().map((tool) => tool.name)).toContain('t__echo');
  });

  it('a listTools() answer cannot be changed by its receiver for the next one', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    await orchestrator.warmup();
    const first = orchestrator.listTools();
    try {
      (first as unknown as unknown[]).length = 0;
    } catch {
      // a frozen list refuses the change
    }
    expect(orchestrator.listTools().map((tool) => tool.name)).toEqual(['batch', 'tool_output', 't__echo']);
  });
});
