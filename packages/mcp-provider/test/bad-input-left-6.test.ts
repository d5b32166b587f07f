// Items the fifth round left, found again through the public API: a listing that pages slowly
// without end, an initialize answered with both a result and an error, a late answer whose id
// is the request's number written as a string.
import { ToolError, createToolContext } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpProvider, type McpServerConfig, createMcpProvider, loadMcpConfig } from '../src/index.js';
import { eventLog, fixture, fixtureServer, hostileServer, tempDirectory } from './helpers.js';
import { type RunningHttpFixture, startHttpFixture } from './remote-helpers.js';

const run = tempDirectory();
afterAll(() => run.remove());

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

describe('an initialize answered with both "result" and "error"', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`fails the start at once with the server's error (client ${client}), not at the startup timeout`, async () => {
      // the startup timeout is far longer than the test's own: only an early failure passes
      const provider = createMcpProvider(
        'both',
        hostileServer(['--both-initialize'], { client, startupTimeoutMs: 600_000 }),
        { runDirectory: run.path },
      );
      const error = await startError(provider);
      expect(ToolError.isInstance(error) && error.code).toBe('PROVIDER_UNAVAILABLE');
      expect((error as Error).message).toMatch(/both "result" and "error".*initialize half-failed/);
    }, 30_000);
  }
});

describe('a late answer whose id is the request number written as a string', () => {
  let bridge: RunningHttpFixture;
  beforeAll(async () => {
    bridge = await startHttpFixture(
      [fixture('hostile-server.mjs'), '--late', '--late-string-ids'],
      'ws-bridge.mjs',
    );
  });
  afterAll(() => bridge.close());

  const paths: ReadonlyArray<{ name: string; config: () => McpServerConfig }> = [
    {
      name: 'stdio, client v2',
      config: () => hostileServer(['--late', '--late-string-ids'], { client: 'v2', requestTimeoutMs: 3_000 }),
    },
    {
      name: 'WebSocket, client v1',
      config: () => ({ type: 'websocket', url: `ws://127.0.0.1:${bridge.port}/`, requestTimeoutMs: 3_000 }),
    },
  ];
  for (const path of paths) {
    it(`is dropped quietly as the SDKs match a live answer "3" to request 3 (${path.name})`, async () => {
      const log = eventLog();
      const provider = createMcpProvider('late', path.config(), {
        runDirectory: run.path,
        onEvent: log.onEvent,
      });
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        const count = async (): Promise<number> => {
          const result = await provider.execute('late_answers', {}, createToolContext());
          return Number(
            result.ok && result.content[0]?.type === 'text' ? result.content[0].text : Number.NaN,
          );
        };
        const controller = new AbortController();
        const pending = provider.execute('late', {}, createToolContext({ signal: controller.signal }));
        setTimeout(() => controller.abort(new Error('stop')), 300);
        expect(await pending).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
        for (let i = 0; i < 200 && (await count()) < 1; i++) await new Promise((r) => setTimeout(r, 50));
        expect(await count()).toBe(1);
        await new Promise((resolve) => setTimeout(resolve, 200));
        const reports = log.events.filter(
          (event) => event.type === 'protocol-error' && /unknown (message ID|token)/.test(event.message),
        );
        expect(reports).toEqual([]);
      } finally {
        await provider.close?.();
      }
    }, 60_000);
  }
});

describe('a resource read that never ends', () => {
  it('is capped by maxTotalTimeoutMs like a tool call (it waited for requestTimeoutMs)', async () => {
    // requestTimeoutMs is far longer than the test's own timeout: only the cap can end the read
    const provider = createMcpProvider(
      'docs',
      fixtureServer([], { requestTimeoutMs: 600_000, maxTotalTimeoutMs: 1_500 }),
      { runDirectory: run.path },
    );
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      const result = await provider.execute('read_resource', { uri: 'fixture://never' }, createToolContext());
      expect(result).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
      expect(!result.ok && result.error.message).toMatch(/maxTotalTimeoutMs/);
    } finally {
      await provider.close?.();
    }
  }, 30_000);
});

describe('a bearerToken that is empty or only spaces', () => {
  it('is CONFIG_INVALID naming bearerToken with what to do (blanks were sent as "Authorization: Bearer")', () => {
    for (const bearerToken of ['', '   ', '\t']) {
      let thrown: unknown;
      try {
        createMcpProvider('docs', { url: 'http://127.0.0.1:9/mcp', bearerToken });
      } catch (error) {
        thrown = error;
      }
      expect(ToolError.isInstance(thrown) && thrown.code).toBe('CONFIG_INVALID');
      expect(ToolError.isInstance(thrown) && thrown.details).toMatchObject({ field: 'bearerToken' });
      expect((thrown as Error).message).toMatch(/bearerToken is empty or only spaces.*remove bearerToken/);
    }
  });

  it('is a problem of that server in the loader, never a server sent a blank token', async () => {
    const loaded = await loadMcpConfig(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder with an empty default
      { mcpServers: { docs: { url: 'http://127.0.0.1:9/mcp', bearerToken: '${DOCS_TOKEN:-}' } } },
      { env: {} },
    );
    expect(loaded.servers).toEqual({});
    expect(loaded.problems[0]?.message).toMatch(/bearerToken is empty or only spaces/);
  });
});
