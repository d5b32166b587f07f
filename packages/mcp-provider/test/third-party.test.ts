import { createRequire } from 'node:module';
import { createToolContext } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpProvider, createMcpProvider } from '../src/index.js';
import { tempDirectory } from './helpers/index.js';

const require = createRequire(import.meta.url);
const run = tempDirectory();

describe('@modelcontextprotocol/server-everything from npm', () => {
  let provider: McpProvider;
  beforeAll(async () => {
    const entry = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
    provider = createMcpProvider(
      'everything',
      { type: 'stdio', command: process.execPath, args: [entry, 'stdio'], healthIntervalMs: 0 },
      { runDirectory: run.path },
    );
    await provider.start?.(AbortSignal.timeout(60_000));
  });
  afterAll(async () => {
    await provider.close?.();
    run.remove();
  });

  it('lists its tools and calls echo and get-sum', async () => {
    const names = (await provider.listTools()).map((spec) => spec.name);
    expect(names).toEqual(expect.arrayContaining(['echo']));
    const echo = await provider.execute('echo', { message: 'from toolplane' }, createToolContext());
    expect(echo.ok && JSON.stringify(echo.content)).toContain('from toolplane');
    const sumName = names.find((name) => /sum|add/i.test(name));
    expect(sumName).toBeDefined();
    const sum = await provider.execute(sumName as string, { a: 2, b: 40 }, createToolContext());
    expect(sum.ok && JSON.stringify(sum.content)).toContain('42');
  });
});
