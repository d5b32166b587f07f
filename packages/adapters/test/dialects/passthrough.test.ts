import { describe, expect, it } from 'vitest';
import { compileTools, toAnthropicTool, toMcpTool, toResponsesTool } from '../../src/index.js';
import { FILE_TOOL } from './fixtures.js';

describe('dialects that take JSON Schema as it is', () => {
  for (const dialect of ['openai', 'anthropic', 'mcp'] as const) {
    it(`${dialect}: keeps the schema unchanged and reports the tool exact`, () => {
      const compiled = compileTools([FILE_TOOL], dialect);
      expect(compiled.tools[0]?.parameters).toEqual(FILE_TOOL.inputSchema);
      expect(compiled.tools[0]?.compat.status).toBe('exact');
      const args = { path: 'p', tag: null };
      expect(compiled.restoreCall('fs__write', JSON.stringify(args)).args).toEqual(args);
    });
  }

  it('adds type object to a root that only has properties', () => {
    const compiled = compileTools(
      [{ name: 'x', description: '', inputSchema: { properties: { a: { type: 'string' } } } }],
      'anthropic',
    );
    expect(toAnthropicTool(compiled.tools[0] as (typeof compiled.tools)[number]).input_schema.type).toBe(
      'object',
    );
    expect(compiled.tools[0]?.compat.status).toBe('lossless');
  });

  it('writes the non-strict Responses tool with strict false and MCP tools with inputSchema', () => {
    const openai = compileTools([FILE_TOOL], 'openai');
    expect(toResponsesTool(openai.tools[0] as (typeof openai.tools)[number]).strict).toBe(false);
    const mcp = compileTools([FILE_TOOL], 'mcp');
    expect(toMcpTool(mcp.tools[0] as (typeof mcp.tools)[number]).inputSchema).toEqual(FILE_TOOL.inputSchema);
  });
});
