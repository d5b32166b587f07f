import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, compileTools, createToolBridge, exportTools } from '../../src/index.js';
import { startEverything } from '../helpers/everything.js';

let everything: Awaited<ReturnType<typeof startEverything>>;
beforeAll(async () => {
  everything = await startEverything();
});
afterAll(async () => {
  await everything.close();
});

describe('the tools of @modelcontextprotocol/server-everything', () => {
  it('compile to every dialect with a report entry per tool and nothing unrepresentable', () => {
    const tools = everything.orchestrator.listTools();
    expect(tools.length).toBeGreaterThan(5);
    for (const dialect of DIALECTS) {
      const { report, definitions } = exportTools(tools, dialect);
      expect(definitions).toHaveLength(tools.length);
      expect(report.entries).toHaveLength(tools.length);
      expect(report.counts.unrepresentable).toBe(0);
    }
  });

  it('map strict-mode nulls for every optional argument back to absent', () => {
    const compiled = compileTools(everything.orchestrator.listTools(), 'openai-strict');
    for (const tool of compiled.tools) {
      const properties = Object.keys((tool.parameters?.properties as object | undefined) ?? {});
      const allNull = Object.fromEntries(properties.map((key) => [key, null]));
      const restored = compiled.restoreCall(tool.name, allNull).args;
      const spec = everything.orchestrator.listTools().find((s) => s.name === tool.originalName);
      const required = new Set((spec?.inputSchema.required as string[] | undefined) ?? []);
      expect(
        Object.keys(restored).every((key) => required.has(key)),
        tool.name,
      ).toBe(true);
    }
  });

  it('run echo through the Gemini and strict OpenAI bridges', async () => {
    for (const dialect of ['gemini', 'openai-strict'] as const) {
      const bridge = createToolBridge(everything.orchestrator, dialect);
      const result = await bridge.call('everything__echo', { message: `via ${dialect}` });
      expect(result.ok && JSON.stringify(result.content)).toContain(`via ${dialect}`);
    }
  });
});
