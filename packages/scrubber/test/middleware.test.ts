import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  type ProgressUpdate,
  type RegisteredTool,
  type Tool,
  type ToolCall,
  type ToolContext,
  type ToolResult,
  createLocalProvider,
  createToolContext,
  fail,
  ok,
} from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { scrubberMiddleware } from '../src/middleware.js';
import { createScrubber } from '../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../src/testing/fake.js';
import type { Finding } from '../src/types.js';

const run = promisify(execFile);
const fake = createFakeSource();
const envSecret = fake.chars(ALPHABETS.alnum, 32);
const githubToken = `ghp_${fake.chars(ALPHABETS.alnum, 36)}`;
const password = `${fake.chars(ALPHABETS.alnum, 14)}7`;

function tool(name: string, execute: (ctx: ToolContext) => Promise<ToolResult>): Tool {
  return {
    spec: { name, description: `${name} test tool`, inputSchema: { type: 'object' }, sideEffect: 'none' },
    execute: (_args, ctx) => execute(ctx),
  };
}

const tools = [
  // A real child process echoing an injected environment value, as-is and base64-encoded.
  tool('print_env', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '-e',
        "const v = process.env.API_SECRET; console.log('raw', v); console.log('b64', Buffer.from('k=' + v).toString('base64'))",
      ],
      { env: { ...process.env, API_SECRET: envSecret } },
    );
    return ok(stdout);
  }),
  tool('structured', async () =>
    ok([{ type: 'resource', resource: { uri: 'mem://config', text: `token: ${githubToken}` } }], {
      config: { database: { password }, note: `uses ${githubToken}` },
      list: [githubToken, 1, true, null],
    }),
  ),
  tool('fails', async () =>
    fail('EXECUTION_FAILED', `connect failed: postgres://app:${password}@db:5432/app`, {
      details: { url: `postgres://app:${password}@db:5432/app` },
      content: [{ type: 'text', text: `stderr: auth ${githubToken} rejected` }],
    }),
  ),
  tool('progress', async (ctx) => {
    ctx.progress({ message: `cloning with ${githubToken}`, progress: 1, total: 2 });
    ctx.progress({ progress: 2, total: 2 });
    return ok('done');
  }),
];
const provider = createLocalProvider({ namespace: 'test', tools });

async function call(
  name: string,
  progress?: (update: ProgressUpdate) => void,
  onFindings?: (f: readonly Finding[]) => void,
) {
  const scrubber = createScrubber({ secrets: [envSecret] });
  const middleware = scrubberMiddleware(
    scrubber,
    onFindings ? { onFindings: (found) => onFindings(found) } : {},
  );
  expect(middleware.phase).toBe('transform');
  const registered: RegisteredTool = {
    name: `test__${name}`,
    localName: name,
    spec: tools.find((t) => t.spec.name === name)?.spec ?? {
      name,
      description: name,
      inputSchema: { type: 'object' },
    },
    provider: { namespace: 'test', kind: 'local' },
  };
  const ctx = createToolContext(progress ? { progress } : {});
  const next = async (inner: ToolCall): Promise<ToolResult> => {
    // A provider that throws instead of returning a result: the middleware must still return one.
    if (name === 'throws') throw new Error(`boom ${githubToken}`);
    return provider.execute(inner.tool.localName, inner.args, inner.ctx);
  };
  return (middleware.handle as NonNullable<typeof middleware.handle>)(
    { tool: registered, args: {}, ctx },
    next,
  );
}

describe('scrubberMiddleware', () => {
  it('redacts an injected env value a real child process prints, as-is and base64-encoded', async () => {
    const found: Finding[] = [];
    const result = await call('print_env', undefined, (findings) => found.push(...findings));
    expect(result.ok).toBe(true);
    const text = result.ok && result.content[0]?.type === 'text' ? result.content[0].text : '';
    expect(text).toContain('raw [REDACTED:secret]');
    expect(text).not.toContain(envSecret);
    expect(
      Buffer.from(text.split('b64 ')[1]?.replace('[REDACTED:secret]', '') ?? '', 'base64').toString(),
    ).not.toContain(envSecret);
    expect(found.length).toBe(2);
  });

  it('redacts content blocks and structured data, keeping structured data valid JSON', async () => {
    const result = await call('structured');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.content[0]).toEqual({
      type: 'resource',
      resource: { uri: 'mem://config', text: 'token: [REDACTED:github_token]' },
    });
    expect(result.structured).toEqual({
      config: { database: { password: '[REDACTED:password]' }, note: 'uses [REDACTED:github_token]' },
      list: ['[REDACTED:github_token]', 1, true, null],
    });
  });

  it('redacts error messages, details and the content of failures', async () => {
    const result = await call('fails');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('EXECUTION_FAILED');
    expect(result.error.message).toBe('connect failed: postgres://app:[REDACTED:url_password]@db:5432/app');
    expect(result.error.details).toEqual({ url: 'postgres://app:[REDACTED:url_password]@db:5432/app' });
    expect(result.content).toEqual([{ type: 'text', text: 'stderr: auth [REDACTED:github_token] rejected' }]);
  });

  it('wraps ctx.progress so progress messages are redacted too', async () => {
    const updates: ProgressUpdate[] = [];
    const result = await call('progress', (update) => updates.push(update));
    expect(result.ok).toBe(true);
    expect(updates).toEqual([
      { message: 'cloning with [REDACTED:github_token]', progress: 1, total: 2 },
      { progress: 2, total: 2 },
    ]);
  });

  it('turns a throwing next into a redacted failure instead of throwing', async () => {
    const result = await call('throws');
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'EXECUTION_FAILED', message: 'boom [REDACTED:github_token]' },
    });
  });
});

describe('malformed results reaching the middleware', () => {
  const registered: RegisteredTool = {
    name: 'test__broken',
    localName: 'broken',
    spec: { name: 'broken', description: 'broken', inputSchema: { type: 'object' } },
    provider: { namespace: 'test', kind: 'local' },
  };
  const through = async (result: unknown): Promise<ToolResult> => {
    const middleware = scrubberMiddleware(createScrubber());
    const handle = middleware.handle as NonNullable<typeof middleware.handle>;
    return handle({ tool: registered, args: {}, ctx: createToolContext() }, async () => result as ToolResult);
  };

  it('withholds a result whose content is a string (not an array of blocks) as INTERNAL, its text unseen', async () => {
    const result = await through({ ok: true, content: `token ${githubToken}` });
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(result)).not.toContain(githubToken.slice(4, 20));
    expect(!result.ok && result.error.message).toContain('malformed result');
  });

  it('says INTERNAL and names the problem for other malformed results, never INVALID_ARGUMENTS', async () => {
    for (const broken of [
      null,
      { ok: true, content: [null] },
      { ok: true, content: [{ type: 'text', text: 42 }] },
      { ok: false, error: { code: 'EXECUTION_FAILED' } },
    ]) {
      const result = await through(broken);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error.code).toBe('INTERNAL');
      expect(!result.ok && result.error.message).toContain('malformed result');
    }
  });
});

describe('the context the middleware passes on', () => {
  const registered: RegisteredTool = {
    name: 'test__ctx',
    localName: 'ctx',
    spec: { name: 'ctx', description: 'ctx', inputSchema: { type: 'object' } },
    provider: { namespace: 'test', kind: 'local' },
  };

  it("keeps a `signal` that is an accessor on the context's prototype (core allows lazy signals)", async () => {
    const controller = new AbortController();
    const base = createToolContext();
    const lazy = Object.create({
      get signal() {
        return controller.signal;
      },
    }) as ToolContext;
    const { signal: _own, ...fields } = base;
    Object.assign(lazy, fields);
    expect(lazy.signal).toBe(controller.signal);
    const middleware = scrubberMiddleware(createScrubber());
    const handle = middleware.handle as NonNullable<typeof middleware.handle>;
    let seen: AbortSignal | undefined;
    await handle({ tool: registered, args: {}, ctx: lazy }, async (inner) => {
      seen = inner.ctx.signal;
      return ok('done');
    });
    expect(seen).toBe(controller.signal);
  });

  it('scrubs a progress message that is not a string instead of throwing into the tool', async () => {
    const updates: unknown[] = [];
    const middleware = scrubberMiddleware(createScrubber());
    const handle = middleware.handle as NonNullable<typeof middleware.handle>;
    const result = await handle(
      { tool: registered, args: {}, ctx: createToolContext({ progress: (update) => updates.push(update) }) },
      async (inner) => {
        inner.ctx.progress({ message: 42 as unknown as string, progress: 1 });
        inner.ctx.progress({ message: { token: githubToken } as unknown as string });
        return ok('done');
      },
    );
    expect(result.ok).toBe(true);
    expect(updates).toEqual([{ message: '42', progress: 1 }, { message: '[object Object]' }]);
  });
});
