import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../src/index.js';
import { fixtureServer, tempDirectory } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

describe('a server config without type', () => {
  it('starts a command with no url as a stdio server, as MCP client config files write it', async () => {
    const { type: _type, ...withoutType } = fixtureServer();
    const provider = createMcpProvider('implied', withoutType, { runDirectory: run.path });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      const result = await provider.execute('echo', { message: 'no type given' }, createToolContext());
      expect(result.ok).toBe(true);
      expect(JSON.stringify(result)).toContain('no type given');
      expect(provider.status().state).toBe('ready');
    } finally {
      await provider.close?.();
    }
  });

  it('still refuses an entry with neither command nor url, saying what is missing', () => {
    expect(() => createMcpProvider('empty', {} as never)).toThrow(/command|url/);
  });
});
