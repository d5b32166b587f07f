// Roots from a real SDK server's point of view, on both clients over stdio and streamable HTTP:
// the configured workspace folders as file:// roots, and notifications/roots/list_changed when
// they change.
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpRoots } from '../src/index.js';
import { PATHS, askingHttpServer, askingProvider, callText } from './helpers/asking-providers.js';
import { tempDirectory } from './helpers/index.js';

const run = tempDirectory();
const first = tempDirectory();
const second = tempDirectory();
const http = askingHttpServer();
beforeAll(() => http.start(), 30_000);
afterAll(async () => {
  await http.close();
  for (const directory of [run, first, second]) directory.remove();
});

const uri = (path: string): string => pathToFileURL(path).href;

for (const path of PATHS) {
  describe(`roots (client ${path.client}, ${path.transport})`, () => {
    it('offers the workspace folders and tells the server when they change', async () => {
      const roots = createMcpRoots([first.path]);
      const provider = await askingProvider(path, http.url, { runDirectory: run.path, roots });
      try {
        expect(JSON.parse(await callText(provider, 'capabilities'))).toEqual({
          roots: { listChanged: true },
        });
        expect(JSON.parse(await callText(provider, 'roots')).roots).toEqual([
          { uri: uri(first.path), name: first.path.split('/').at(-1) },
        ]);
        roots.set([first.path, { path: second.path, name: 'second' }]);
        let seen: unknown[] = [];
        for (let attempt = 0; attempt < 100 && seen.length === 0; attempt++) {
          seen = JSON.parse(await callText(provider, 'roots_seen'));
          if (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(seen[0]).toEqual([
          { uri: uri(first.path), name: first.path.split('/').at(-1) },
          { uri: uri(second.path), name: 'second' },
        ]);
      } finally {
        await provider.close?.();
      }
    }, 60_000);
  });
}

describe('roots asked for in a loop', () => {
  it('answers 2,000 requests within one call, and a path list works as static roots', async () => {
    const provider = await askingProvider(PATHS[0], http.url, {
      runDirectory: run.path,
      roots: [second.path],
    });
    try {
      expect(JSON.parse(await callText(provider, 'roots', { times: 2_000 })).roots).toEqual([
        { uri: uri(second.path), name: second.path.split('/').at(-1) },
      ]);
      expect(JSON.parse(await callText(provider, 'roots', {})).roots).toHaveLength(1);
    } finally {
      await provider.close?.();
    }
  }, 120_000);

  it('is declined at once without roots configured', async () => {
    const provider = await askingProvider(PATHS[0], http.url, { runDirectory: run.path });
    try {
      expect(await callText(provider, 'roots')).toMatch(/^error -32601 .*no roots are configured/);
    } finally {
      await provider.close?.();
    }
  }, 60_000);
});
