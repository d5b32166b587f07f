import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_SCHEMA_NODES, ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, messageOf, thrownBy, testProvider } from '../helpers.js';

// Core refuses a schema of more than maxSchemaNodes objects and arrays
// (compiling one holds the thread about 0.1-0.3 ms per subschema); the orchestrator reports it
// once, naming the tool, and lets the bound be raised.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

function wide(count: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let index = 0; index < count; index++) properties[`p${index}`] = { type: 'integer' };
  return { type: 'object', properties };
}

function withWideTool(options: Parameters<typeof createOrchestrator>[0]) {
  const local = createOrchestrator(options);
  const warnings: string[] = [];
  local.on('warning', (event) => warnings.push(event.message));
  local.register(
    testProvider('srv', {
      wide: {
        spec: { sideEffect: 'none', inputSchema: wide(DEFAULT_MAX_SCHEMA_NODES + 1) },
        run: () => ok('ran'),
      },
    }),
  );
  return { local, warnings };
}

describe('an input schema over maxSchemaNodes', () => {
  it('is reported once naming the tool and the bound, and the tool runs unvalidated', async () => {
    const { local, warnings } = withWideTool({});
    orchestrator = local;
    expect(codeOf(await local.call('srv__wide', { p1: 'not an integer' }))).toBe('OK');
    expect(codeOf(await local.call('srv__wide', { p2: 'still not' }))).toBe('OK');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('input schema of srv__wide does not compile, arguments are not validated');
    expect(warnings[0]).toContain(
      `more than ${DEFAULT_MAX_SCHEMA_NODES} objects and arrays (maxSchemaNodes)`,
    );
  });

  it('is validated with validation.maxSchemaNodes raised', async () => {
    const { local, warnings } = withWideTool({ validation: { maxSchemaNodes: 20_000 } });
    orchestrator = local;
    const refused = await local.call('srv__wide', { p1: 'not an integer' });
    expect(codeOf(refused)).toBe('INVALID_ARGUMENTS');
    expect(messageOf(refused)).toContain('args.p1: must be integer');
    expect(codeOf(await local.call('srv__wide', { p1: 1 }))).toBe('OK');
    expect(warnings).toEqual([]);
  });

  it('a bad validation.maxSchemaNodes is CONFIG_INVALID at once', () => {
    for (const bad of [0, -5, 2.5, Number.NaN, '100']) {
      const error = thrownBy(() => createOrchestrator({ validation: { maxSchemaNodes: bad as number } }));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain('validation.maxSchemaNodes must be a positive integer');
    }
  });
});
