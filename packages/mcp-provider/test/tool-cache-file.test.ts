// A lazy server's tool cache is a file: one that was edited, cut or written by something else
// (entries that are not tool definitions, a definition nested 100 000 deep) is not trusted.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../src/index.js';
import { fixtureServer, tempDirectory } from './helpers/index.js';

const run = tempDirectory();
const cache = tempDirectory();
afterAll(() => {
  run.remove();
  cache.remove();
});

const deep = 100_000;
const hostileEntries: ReadonlyArray<{ name: string; tools: string }> = [
  { name: 'an entry that is null', tools: 'null' },
  { name: 'an entry without a definition', tools: '{"hash":"x"}' },
  {
    name: 'a definition without a name',
    tools: '{"definition":{"inputSchema":{"type":"object"}},"hash":"x"}',
  },
  {
    name: 'a definition nested 100 000 deep',
    tools: `{"definition":{"name":"deep","inputSchema":{"type":"object","a":${'['.repeat(deep)}${']'.repeat(deep)}}},"hash":"x"}`,
  },
];

describe('a lazy server whose tool cache file holds what no listing wrote', () => {
  for (const entry of hostileEntries) {
    it(`is listed from the server instead (${entry.name})`, async () => {
      const config = fixtureServer([], { lazy: true });
      const options = {
        runDirectory: run.path,
        toolCacheDirectory: join(cache.path, entry.name.replace(/\W/g, '_')),
      };
      const first = createMcpProvider('lazy', config, options);
      await first.start?.(AbortSignal.timeout(30_000));
      await first.close?.();
      const [file] = readdirSync(options.toolCacheDirectory);
      writeFileSync(
        join(options.toolCacheDirectory, file as string),
        `{"version":1,"server":"lazy","savedAt":1,"identity":{"hasTools":true,"hasResources":false,"toolsListChanged":false},"tools":[${entry.tools}]}`,
      );
      const provider = createMcpProvider('lazy', config, options);
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        expect((await provider.listTools()).map((spec) => spec.name)).toContain('echo');
        expect(await provider.execute('echo', { message: 'hi' }, createToolContext())).toMatchObject({
          ok: true,
        });
      } finally {
        await provider.close?.();
      }
    }, 60_000);
  }
});
