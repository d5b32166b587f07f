import { createToolContext, riskOf } from '@toolplane/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type McpProvider, createMcpProvider } from '../src/index.js';
import { eventLog, fixtureServer, pidsWithTag, tempDirectory, uniqueTag, waitFor } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

describe('stdio server: tools and calls', () => {
  let provider: McpProvider;
  const log = eventLog();
  beforeAll(async () => {
    provider = createMcpProvider('fixture', fixtureServer(), {
      runDirectory: run.path,
      onEvent: log.onEvent,
    });
    await provider.start?.(AbortSignal.timeout(30_000));
  });
  afterAll(() => provider.close?.());

  it('lists tools with groups, risk and a definition hash', async () => {
    const specs = await provider.listTools();
    const echo = specs.find((spec) => spec.name === 'echo');
    expect(echo?.groups).toEqual(['mcp', 'mcp:fixture']);
    expect(echo?.meta?.definitionHash).toMatch(/^[0-9a-f]{64}$/);
    expect(echo?.meta?.remoteName).toBe('echo');
    expect(riskOf(echo!)).toBe('low');
    expect(riskOf(specs.find((spec) => spec.name === 'delete_everything')!)).toBe('critical');
    expect(riskOf(specs.find((spec) => spec.name === 'add')!)).toBe('high');
    expect(specs.map((spec) => spec.name)).toEqual(
      expect.arrayContaining(['list_resources', 'read_resource']),
    );
    expect(provider.instructions?.()).toContain('Fixture server');
  });

  it('answers an MCP ping with its round trip, and a server that cannot start rejects it', async () => {
    const ms = await provider.ping({ timeoutMs: 10_000 });
    expect(ms).toBeGreaterThanOrEqual(0);
    const broken = createMcpProvider('broken', fixtureServer(['--crash-on-start']), {
      runDirectory: run.path,
    });
    try {
      await expect(broken.ping({ timeoutMs: 10_000 })).rejects.toThrow();
    } finally {
      await broken.close?.();
    }
  });

  it('calls a tool and maps text', async () => {
    const result = await provider.execute('echo', { message: 'hi there' }, createToolContext());
    expect(result).toEqual({ ok: true, content: [{ type: 'text', text: 'hi there' }] });
  });

  it('returns structured content checked against the output schema', async () => {
    const result = await provider.execute('add', { a: 2, b: 3 }, createToolContext());
    expect(result.ok && result.structured).toEqual({ sum: 5 });
  });

  it('maps every content type', async () => {
    const result = await provider.execute('content_types', {}, createToolContext());
    expect(result.ok).toBe(true);
    expect(result.ok && result.content.map((block) => block.type)).toEqual([
      'text',
      'image',
      'audio',
      'resource',
      'resource_link',
    ]);
  });

  it('turns isError into EXECUTION_FAILED with the server text', async () => {
    const result = await provider.execute('fail', {}, createToolContext());
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('EXECUTION_FAILED');
    expect(!result.ok && result.error.message).toContain('the widget is broken');
    expect(!result.ok && result.error.message).toContain('"fixture"');
  });

  it('validates arguments before sending', async () => {
    const result = await provider.execute('echo', { message: 42 }, createToolContext());
    expect(!result.ok && result.error.code).toBe('INVALID_ARGUMENTS');
    expect(!result.ok && result.error.message).toContain('args.message');
  });

  it('reports an unknown tool with the known names', async () => {
    const result = await provider.execute('nope', {}, createToolContext());
    expect(!result.ok && result.error.code).toBe('TOOL_NOT_FOUND');
    expect(!result.ok && result.error.message).toContain('echo');
  });

  it('forwards progress to ctx.progress', async () => {
    const updates: unknown[] = [];
    const result = await provider.execute(
      'slow_progress',
      { steps: 3, intervalMs: 10 },
      createToolContext({ progress: (update) => updates.push(update) }),
    );
    expect(result.ok).toBe(true);
    // Every notification sent before the response arrives, even when read in one chunk with it.
    expect(updates).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
  });

  it('exposes resources as two tools', async () => {
    const listed = await provider.execute('list_resources', {}, createToolContext());
    expect(listed.ok && JSON.stringify(listed.structured)).toContain('fixture://hello');
    const read = await provider.execute('read_resource', { uri: 'fixture://hello' }, createToolContext());
    expect(read.ok && read.content[0]).toEqual({
      type: 'resource',
      resource: { uri: 'fixture://hello', mimeType: 'text/plain', text: 'hello resource' },
    });
  });

  it('carries 20 MB results', async () => {
    const result = await provider.execute('huge', { megabytes: 20 }, createToolContext());
    expect(result.ok).toBe(true);
    const first = result.ok ? result.content[0] : undefined;
    expect(first?.type === 'text' && first.text.length).toBe(20 * 1024 * 1024);
  });

  it('refreshes on tools/list_changed and tells listeners', async () => {
    let told = 0;
    const off = provider.onToolsChanged?.(() => told++);
    await provider.execute('add_tool', {}, createToolContext());
    expect(await waitFor(() => told > 0)).toBe(true);
    expect((await provider.listTools()).some((spec) => spec.name === 'late_tool')).toBe(true);
    off?.();
  });

  it('cancels a call on abort', async () => {
    const controller = new AbortController();
    const pending = provider.execute('hang', {}, createToolContext({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    const result = await pending;
    expect(!result.ok && result.error.code).toBe('CANCELLED');
  });
});

describe('stdio server: timeouts', () => {
  let provider: McpProvider | undefined;
  afterEach(() => provider?.close?.());

  // requestTimeoutMs also bounds the whole tools/list of the start, and on a loaded host a fresh
  // server's first listing can take longer than 300 ms, so these timers are seconds long.
  it('times out a hanging call with TIMEOUT and keeps serving', async () => {
    provider = createMcpProvider('hangs', fixtureServer([], { requestTimeoutMs: 2_000 }), {
      runDirectory: run.path,
    });
    await provider.start?.(AbortSignal.timeout(30_000));
    const result = await provider.execute('hang', {}, createToolContext());
    expect(!result.ok && result.error.code).toBe('TIMEOUT');
    expect(!result.ok && result.error.message).toContain('requestTimeoutMs');
    const after = await provider.execute('echo', { message: 'still here' }, createToolContext());
    expect(after.ok).toBe(true);
  });

  it('lets progress notifications extend the request timer', async () => {
    provider = createMcpProvider('progress', fixtureServer([], { requestTimeoutMs: 2_000 }), {
      runDirectory: run.path,
    });
    await provider.start?.(AbortSignal.timeout(30_000));
    // 8 steps of 750 ms is 6 s in all, three times the timeout, but never 2 s silent.
    const result = await provider.execute(
      'slow_progress',
      { steps: 8, intervalMs: 750 },
      createToolContext(),
    );
    expect(result.ok).toBe(true);
  });

  it('fails the start of a slow server after startupTimeoutMs, naming the server', async () => {
    const tag = uniqueTag();
    provider = createMcpProvider(
      'slow',
      fixtureServer(['--startup-delay=10000', `--tag=${tag}`], { startupTimeoutMs: 500 }),
      {
        runDirectory: run.path,
      },
    );
    await expect(provider.start?.(AbortSignal.timeout(30_000))).rejects.toThrow(/"slow".*500 ms/);
    expect(await waitFor(() => pidsWithTag(tag).length === 0)).toBe(true);
  });

  it('starts a slow server within a generous startup timeout', async () => {
    provider = createMcpProvider('slowok', fixtureServer(['--startup-delay=800']), {
      runDirectory: run.path,
    });
    await provider.start?.(AbortSignal.timeout(30_000));
    expect(provider.status().state).toBe('ready');
  });
});

describe('a resource read that never ends', () => {
  it('is capped by maxTotalTimeoutMs like a tool call', async () => {
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
