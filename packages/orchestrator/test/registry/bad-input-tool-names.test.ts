import { afterEach, describe, expect, it } from 'vitest';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, echo, messageOf, testProvider } from '../helpers.js';

// Tool names a confused model sends: not a string, very long, or made up by the thousand.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

describe('names a confused model sends', () => {
  it('a tool name that is not a string is TOOL_NOT_FOUND; call() does not throw', async () => {
    orchestrator = createOrchestrator();
    for (const name of [undefined, 42, null, { name: 'x' }]) {
      const result = await orchestrator.call(name as unknown as string, {});
      expect(codeOf(result)).toBe('TOOL_NOT_FOUND');
      expect(messageOf(result)).toContain('a tool name must be a string');
    }
  });

  it('a very long unknown name gets a short message and no far-off suggestions', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    const huge = await orchestrator.call('q'.repeat(1_000_000), {});
    expect(codeOf(huge)).toBe('TOOL_NOT_FOUND');
    expect(messageOf(huge).length).toBeLessThan(500);
    expect(messageOf(huge)).toContain('(1000000 characters)');
    expect(huge.meta?.tool.length).toBeLessThan(300);
    // 30 characters unlike anything: no tool is near enough to suggest
    const far = await orchestrator.call('completely_unrelated_name_here', {});
    expect(!far.ok && far.error.details?.suggestions).toEqual([]);
  });

  it('thousands of invented names share one totals entry (the records still name each)', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    for (let i = 0; i < 2000; i++) await orchestrator.call(`made_up_${i}`, {});
    expect((await orchestrator.call('t__echo', {})).ok).toBe(true);
    const { totals, records } = orchestrator.accounting();
    expect(Object.keys(totals).sort()).toEqual(['(unknown tool)', 't__echo']);
    expect(totals['(unknown tool)']).toMatchObject({ calls: 2000, errors: 2000 });
    expect(records.at(-2)).toMatchObject({ tool: 'made_up_1999', ok: false, code: 'TOOL_NOT_FOUND' });
  });
});
