import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeJsonFile } from './helpers.js';

// `tools list --format <dialect>`: the definitions a model API takes, from @toolplane/adapters.

let work: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  work = await tempDir();
  await writeJsonFile(work.path, 'toolplane.config.json', {
    builtin: { workspace: '.', tools: ['read', 'grep', 'write'] },
  });
});
afterAll(() => work.cleanup());

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: unknown;
  items?: Schema;
  anyOf?: Schema[];
};

/** Every object schema in `schema`, nested ones included. */
function objects(schema: Schema | undefined): Schema[] {
  if (!schema || typeof schema !== 'object') return [];
  const nested = [
    ...Object.values(schema.properties ?? {}),
    ...(schema.items ? [schema.items] : []),
    ...(schema.anyOf ?? []),
  ].flatMap(objects);
  return schema.properties ? [schema, ...nested] : nested;
}

async function definitions(format: string): Promise<Record<string, unknown>[]> {
  const outcome = await runCli(['tools', 'list', '--format', format], { cwd: work.path });
  expect(outcome.code).toBe(0);
  return JSON.parse(outcome.stdout) as Record<string, unknown>[];
}

describe('tools list --format', () => {
  it('prints OpenAI strict function tools: every object closed, every property required', async () => {
    const tools = (await definitions('openai-strict')) as {
      type: string;
      function: { name: string; strict?: boolean; parameters: Schema };
    }[];
    const read = tools.find((tool) => tool.function.name === 'read');
    expect(read?.type).toBe('function');
    expect(read?.function.strict).toBe(true);
    for (const tool of tools) {
      const all = objects(tool.function.parameters);
      expect(all.length).toBeGreaterThan(0);
      for (const object of all) {
        expect(object.additionalProperties).toBe(false);
        expect([...(object.required ?? [])].sort()).toEqual(Object.keys(object.properties ?? {}).sort());
      }
    }
    // read's optional offset is required and nullable in strict mode
    expect(read?.function.parameters.properties?.['offset']?.type).toEqual(expect.arrayContaining(['null']));
  });

  it('prints OpenAI, Anthropic, Gemini and MCP definitions in their own shapes', async () => {
    const [openai, anthropic, gemini, mcp] = await Promise.all([
      definitions('openai'),
      definitions('anthropic'),
      definitions('gemini'),
      definitions('mcp'),
    ]);
    const named = (list: Record<string, unknown>[], key: (entry: Record<string, unknown>) => unknown) =>
      list.map(key);
    expect(named(openai, (tool) => (tool['function'] as { name: string }).name)).toContain('read');
    expect((openai[0] as { function: { strict?: boolean } }).function.strict).toBeUndefined();
    const readAnthropic = anthropic.find((tool) => tool['name'] === 'read') as { input_schema: Schema };
    expect(readAnthropic.input_schema.type).toBe('object');
    expect(readAnthropic.input_schema.required).toContain('path');
    const readGemini = gemini.find((tool) => tool['name'] === 'read') as { parameters: Schema };
    expect(JSON.stringify(gemini)).not.toMatch(/"additionalProperties"|"\$ref"|"\$defs"/);
    expect(readGemini.parameters.properties?.['path']?.type).toBe('string');
    const readMcp = mcp.find((tool) => tool['name'] === 'read') as { inputSchema: Schema };
    expect(readMcp.inputSchema.properties?.['path']).toBeDefined();
  });

  it('prints the compatibility report on stderr with --compat, and in the JSON with --json', async () => {
    const [text, json] = await Promise.all([
      runCli(['tools', 'list', '--format', 'gemini', '--compat'], { cwd: work.path }),
      runCli(['tools', 'list', '--format', 'openai-strict', '--compat', '--json'], { cwd: work.path }),
    ]);
    expect(text.code).toBe(0);
    expect(Array.isArray(JSON.parse(text.stdout))).toBe(true);
    expect(text.stderr).toMatch(
      /^gemini: \d+ tools; exact \d+, lossless \d+, relaxed \d+, degraded \d+, unrepresentable \d+/m,
    );
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as {
      format: string;
      tools: unknown[];
      report: {
        dialect: string;
        entries: { tool: string; status: string; issues: unknown[] }[];
        counts: Record<string, number>;
      };
    };
    expect(parsed.format).toBe('openai-strict');
    expect(parsed.tools.length).toBe(parsed.report.entries.length);
    expect(parsed.report.dialect).toBe('openai-strict');
    const read = parsed.report.entries.find((entry) => entry.tool === 'read');
    // optional arguments made required and nullable: a change that maps back exactly
    expect(read?.status).not.toBe('exact');
    expect(read?.issues.length).toBeGreaterThan(0);
  });

  it('refuses an unknown format with the list of formats, and --compat without --format', async () => {
    const [unknown, bare] = await Promise.all([
      runCli(['tools', 'list', '--format', 'claude'], { cwd: work.path }),
      runCli(['tools', 'list', '--compat'], { cwd: work.path }),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain(
      'toolplane: error: INVALID_ARGUMENTS: unknown format "claude": the formats are openai, openai-strict, anthropic, gemini, mcp',
    );
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('--compat needs --format');
  });
});
