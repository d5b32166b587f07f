// Paging a hostile server: a nextCursor of a megabyte (refused where it arrives, never held or
// sent back), and listings that never end, at once or slowly.
import { ToolError, createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { type McpProvider, createMcpProvider } from '../src/index.js';
import { hostileServer, tempDirectory } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

async function text(provider: McpProvider, tool: string, args: Record<string, unknown> = {}) {
  const result = await provider.execute(tool, args, createToolContext());
  return result.ok && result.content[0]?.type === 'text' ? result.content[0].text : JSON.stringify(result);
}

describe('a tools/list nextCursor longer than 16384 characters', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`fails start() and refreshTools() with PROVIDER_UNAVAILABLE naming the server and the limit (client ${client})`, async () => {
      const provider = createMcpProvider('pager', hostileServer(['--huge-cursor=1000000'], { client }), {
        runDirectory: run.path,
      });
      try {
        const error = await provider.start?.(AbortSignal.timeout(30_000)).then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(ToolError.isInstance(error) && error.code).toBe('PROVIDER_UNAVAILABLE');
        expect((error as Error).message).toMatch(
          /^MCP server "pager": tools\/list failed: .*tools\/list gave a nextCursor of 1000000 characters, more than the 16384 a cursor may have here/,
        );
        expect((error as Error).message.length).toBeLessThan(1000);
        await expect(provider.refreshTools(AbortSignal.timeout(30_000))).rejects.toMatchObject({
          code: 'PROVIDER_UNAVAILABLE',
        });
      } finally {
        await provider.close?.();
      }
    }, 60_000);
  }

  it('takes a cursor of exactly 16384 characters', async () => {
    const provider = createMcpProvider('pager', hostileServer(['--huge-cursor=16384', '--resources']), {
      runDirectory: run.path,
    });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect(await text(provider, 'cursors')).toBe('16384');
    } finally {
      await provider.close?.();
    }
  }, 60_000);
});

describe('list_resources and a long cursor', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`fails with INVALID_RESULT when the server sends a nextCursor over the limit, and never sends it back (client ${client})`, async () => {
      const provider = createMcpProvider('docs', hostileServer(['--resources=1000000'], { client }), {
        runDirectory: run.path,
      });
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        const result = await provider.execute('list_resources', {}, createToolContext());
        expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_RESULT' } });
        expect(!result.ok && result.error.message).toMatch(
          /^MCP server "docs" tool "list_resources": .*resources\/list gave a nextCursor of 1000000 characters, more than the 16384/,
        );
        expect(!result.ok && result.error.message.length).toBeLessThan(1000);
        // the longest cursor the server was sent (the v2 client walks every page itself)
        expect(await text(provider, 'cursors')).toBe('0');
      } finally {
        await provider.close?.();
      }
    }, 60_000);
  }

  it('refuses a cursor argument over the limit before sending it (INVALID_ARGUMENTS)', async () => {
    const provider = createMcpProvider('docs', hostileServer(['--resources']), { runDirectory: run.path });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      const result = await provider.execute(
        'list_resources',
        { cursor: 'x'.repeat(16_385) },
        createToolContext(),
      );
      expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
      expect(await text(provider, 'cursors')).toBe('0');
      const page = await provider.execute(
        'list_resources',
        { cursor: 'x'.repeat(16_384) },
        createToolContext(),
      );
      expect(page.ok).toBe(true);
      expect(await text(provider, 'cursors')).toBe('16384');
    } finally {
      await provider.close?.();
    }
  }, 60_000);
});

describe('a tools/list that pages without end, at once', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`fails the listing after 1000 pages with PROVIDER_UNAVAILABLE naming the bound (client ${client})`, async () => {
      const provider = createMcpProvider('pager', hostileServer(['--endless-pages'], { client }), {
        runDirectory: run.path,
      });
      try {
        const error = await provider.start?.(AbortSignal.timeout(60_000)).then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(ToolError.isInstance(error) && error.code).toBe('PROVIDER_UNAVAILABLE');
        expect((error as Error).message).toMatch(/^MCP server "pager": tools\/list .*more than 1000 pages/);
        expect(provider.listTools()).toEqual([]);
      } finally {
        await provider.close?.();
      }
    }, 90_000);
  }
});

/** The error the start of `provider` rejects with (or undefined); the provider is closed after. */
async function startError(provider: McpProvider): Promise<unknown> {
  try {
    await provider.start?.(AbortSignal.timeout(60_000));
  } catch (error) {
    return error;
  } finally {
    await provider.close?.();
  }
  return undefined;
}

describe('a server that pages tools/list slowly and without end', () => {
  it('fails start() with TIMEOUT once the whole listing took requestTimeoutMs, naming the pages', async () => {
    // every page comes well within requestTimeoutMs, but 1000 of them would take 300 s
    const provider = createMcpProvider(
      'pager',
      hostileServer(['--slow-pages=300'], { requestTimeoutMs: 2_000 }),
      { runDirectory: run.path },
    );
    const error = await startError(provider);
    expect(ToolError.isInstance(error) && error.code).toBe('TIMEOUT');
    expect((error as Error).message).toMatch(
      /tools\/list did not finish within 2000 ms \(requestTimeoutMs bounds the whole listing\) after \d+ pages/,
    );
  }, 60_000);

  it('bounds a refreshTools() listing the same way', async () => {
    const provider = createMcpProvider(
      'pager',
      hostileServer(['--slow-pages=300'], { requestTimeoutMs: 1_500, lazy: true }),
      { runDirectory: run.path },
    );
    try {
      const error = await provider.refreshTools().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(ToolError.isInstance(error) && error.code).toBe('TIMEOUT');
    } finally {
      await provider.close?.();
    }
  }, 60_000);
});
