import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPinStore, definitionHash } from '../src/pin-store.js';
import { tool } from './helpers.js';

describe('pin store', () => {
  it('only MCP and REST tools (or tools with a hash) are pinnable', () => {
    expect(definitionHash(tool('read'))).toBeUndefined();
    expect(definitionHash(tool('x', { meta: { definitionHash: 'abc' } }))).toBe('abc');
    const remote = tool('gh__search', { kind: 'mcp', namespace: 'gh', localName: 'search' });
    expect(definitionHash(remote)).toMatch(/^[0-9a-f]{64}$/);
    expect(createPinStore().state(tool('read'))).toEqual({ status: 'not-pinnable' });
  });

  it('unpinned, match, changed; a lazy server cache mismatch needs approval; pins persist', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'policy-pin-store-'));
    try {
      const path = join(directory, 'pins.json');
      const store = createPinStore({ path, now: () => new Date('2026-01-02T03:04:05Z') });
      await store.load();
      const first = tool('gh__search', { kind: 'mcp', namespace: 'gh', meta: { definitionHash: 'h1' } });
      expect(store.state(first)).toEqual({ status: 'unpinned', hash: 'h1' });
      await store.pin('gh__search', 'h1');
      expect(store.state(first)).toEqual({ status: 'match', hash: 'h1' });
      const second = tool('gh__search', { kind: 'mcp', namespace: 'gh', meta: { definitionHash: 'h2' } });
      expect(store.state(second)).toEqual({ status: 'changed', hash: 'h2', pinned: 'h1' });
      const lazy = tool('gh__other', {
        kind: 'mcp',
        namespace: 'gh',
        meta: { definitionHash: 'h3', definitionChanged: true },
      });
      expect(store.state(lazy).status).toBe('changed');
      expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
        version: 1,
        pins: { gh__search: { hash: 'h1', approvedAt: '2026-01-02T03:04:05.000Z' } },
      });
      const reloaded = createPinStore({ path });
      await reloaded.load();
      expect(reloaded.state(second).status).toBe('changed');
      await reloaded.unpin('gh__search');
      expect(reloaded.state(second).status).toBe('unpinned');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
