// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} placeholders in plain strings are what these tests feed the loader
// What a remote server is sent besides the protocol: headers, bearerToken and credentials in the
// URL. A header given twice, one the MCP transport sets itself, a value beyond Latin-1, a token
// that already says "Bearer " or is blank, a user:password URL over HTTP: each is CONFIG_INVALID
// naming the field (a problem of that server in the loader), and no message quotes the value.
import { ToolError, createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider, loadMcpConfig } from '../src/index.js';
import { tempDirectory } from './helpers/index.js';
import { creationErrorIn } from './helpers/creation-error.js';
import { startHttpFixture } from './helpers/http-fixture.js';

const run = tempDirectory();
afterAll(() => run.remove());

const thrownBy = creationErrorIn(run.path);

const URL_SERVER = 'http://127.0.0.1:1/mcp';

describe('one header given twice', () => {
  // Sent as they are, both values would reach the server joined ("Bearer a, Bearer b"), and a
  // bearerToken would replace a header "Authorization" unseen.
  it('in two spellings, or as a header and bearerToken, is CONFIG_INVALID naming both', async () => {
    const cases: ReadonlyArray<readonly [unknown, string, RegExp]> = [
      [
        {
          url: URL_SERVER,
          headers: { Authorization: 'Bearer first-123', authorization: 'Bearer second-456' },
        },
        'headers.authorization',
        /headers\.authorization repeats headers\.Authorization \(header names ignore case\).*keep one/,
      ],
      [
        { type: 'websocket', url: 'ws://127.0.0.1:1/', headers: { 'X-Key': 'a', 'x-key': 'b' } },
        'headers.x-key',
        /repeats headers\.X-Key/,
      ],
      [
        { url: URL_SERVER, headers: { Authorization: 'Bearer header-123' }, bearerToken: 'token-456789' },
        'bearerToken',
        /bearerToken and headers\.Authorization both set the Authorization header: keep one/,
      ],
      [
        {
          type: 'sse',
          url: URL_SERVER,
          headers: { AUTHORIZATION: 'Basic abc' },
          bearerToken: 'token-456789',
        },
        'bearerToken',
        /headers\.AUTHORIZATION both set/,
      ],
    ];
    for (const [config, field, message] of cases) {
      const thrown = thrownBy(config) as Error;
      expect(thrown, JSON.stringify(config)).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(message),
        details: { field },
      });
      // names only, never the values
      expect(thrown.message).not.toMatch(/123|456|abc/);
    }
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          twice: { url: URL_SERVER, headers: { 'X-Api-Key': '${KEY}', 'x-api-key': 'other' } },
          fine: { url: URL_SERVER, headers: { 'X-Api-Key': '${KEY}' } },
        },
      },
      { env: { KEY: 'key-value-1' } },
    );
    expect(Object.keys(loaded.servers)).toEqual(['fine']);
    expect(loaded.problems.map((problem) => [problem.server, problem.field])).toEqual([
      ['twice', 'headers.x-api-key'],
    ]);
  });
});

describe('a user header the transport sets itself', () => {
  const protocolHeaders = [
    'Mcp-Session-Id',
    'mcp-protocol-version',
    'ACCEPT',
    'Content-Type',
    'Last-Event-ID',
  ];

  it('is CONFIG_INVALID naming the header, on every remote transport, in createMcpProvider and the loader', async () => {
    for (const name of protocolHeaders) {
      for (const config of [
        { url: URL_SERVER, headers: { [name]: 'x' } },
        { type: 'sse', url: URL_SERVER, headers: { 'X-Key': 'k', [name]: 'x' } },
        { type: 'websocket', url: 'ws://127.0.0.1:1/ws', headers: { [name]: 'x' } },
      ]) {
        expect(thrownBy(config), `${config.type} ${name}`).toMatchObject({
          code: 'CONFIG_INVALID',
          message: expect.stringMatching(
            new RegExp(`^MCP server "checked": headers\\.${name} is set by the MCP transport .*: remove it$`),
          ),
          details: { server: 'checked', field: `headers.${name}` },
        });
      }
    }
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          pinned: { type: 'http', url: URL_SERVER, headers: { 'Mcp-Protocol-Version': '2025-03-26' } },
          fine: { type: 'http', url: URL_SERVER, headers: { 'X-Api-Key': 'k', 'User-Agent': 'tp' } },
        },
      },
      { env: {} },
    );
    expect(Object.keys(loaded.servers)).toEqual(['fine']);
    expect(loaded.problems.map((problem) => [problem.server, problem.field])).toEqual([
      ['pinned', 'headers.Mcp-Protocol-Version'],
    ]);
  });

  it('so is a connection header the HTTP client manages, over streamable HTTP and SSE', () => {
    for (const name of ['Upgrade', 'expect', 'Keep-Alive', 'Connection']) {
      for (const type of ['http', 'sse']) {
        expect(
          thrownBy({ type, url: URL_SERVER, headers: { [name]: 'x' } }),
          `${type} ${name}`,
        ).toMatchObject({
          code: 'CONFIG_INVALID',
          message: expect.stringMatching(/is set by the MCP transport \(.*fetch failed.*\).*: remove it$/),
          details: { server: 'checked', field: `headers.${name}` },
        });
      }
    }
  });

  it('a session with only allowed headers works against a real streamable HTTP server', async () => {
    const token = `tok-${Date.now().toString(36)}`;
    const server = await startHttpFixture([`--token=${token}`]);
    const provider = createMcpProvider(
      'allowed',
      {
        type: 'http',
        url: `http://127.0.0.1:${server.port}/mcp`,
        headers: {
          Authorization: `Bearer ${token}`,
          'X-Client-Name': 'toolplane-test',
          'User-Agent': 'tp/1',
        },
        healthIntervalMs: 0,
      },
      { runDirectory: run.path },
    );
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      const whoami = await provider.execute('whoami', {}, createToolContext());
      expect(whoami.ok && whoami.content[0]).toEqual({ type: 'text', text: `Bearer ${token}` });
      // a second request rides the session the server assigned (its Mcp-Session-Id)
      const echo = await provider.execute('echo', { message: 'again' }, createToolContext());
      expect(echo).toMatchObject({ ok: true });
      const count = await provider.execute('initialize_count', {}, createToolContext());
      expect(count.ok && count.content[0]).toEqual({ type: 'text', text: '1' });
    } finally {
      await provider.close?.();
      await server.close();
    }
  });
});

describe('a header value with a character beyond Latin-1', () => {
  it('is CONFIG_INVALID naming the header without quoting the value; Latin-1 text passes', async () => {
    const cases: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
      [{ url: URL_SERVER, headers: { 'X-Name': 'tok\u20acn' } }, 'headers.X-Name'],
      [{ type: 'sse', url: URL_SERVER, headers: { 'X-Emoji': 'hi \u{1F600}' } }, 'headers.X-Emoji'],
      [{ type: 'websocket', url: 'ws://127.0.0.1:1/ws', bearerToken: 't\u00f6k\u20acn' }, 'bearerToken'],
    ];
    for (const [config, field] of cases) {
      const error = thrownBy(config);
      expect(error, field).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(/has a character beyond Latin-1 .*percent-encode it or remove it/),
        details: { server: 'checked', field },
      });
      // the value itself is never quoted (it may be a secret)
      expect((error as Error).message).not.toMatch(/tok|\u20ac|\u{1F600}/u);
    }
    // Latin-1 text ("café") is a valid header value and loads; a placeholder is checked after interpolation
    expect(thrownBy({ url: URL_SERVER, headers: { 'X-Name': 'caf\u00e9' } })).toBeUndefined();
    const loaded = await loadMcpConfig(
      { mcpServers: { a: { url: URL_SERVER, headers: { 'X-Key': '${KEY}' } } } },
      { env: { KEY: 'k\u20ac' } },
    );
    expect(loaded.problems.map((problem) => problem.field)).toEqual(['headers.X-Key']);
  });
});

describe('a URL with a user name or password', () => {
  it('on HTTP or SSE is CONFIG_INVALID without quoting it, saying to send an Authorization header', async () => {
    const password = `pw-${Date.now().toString(36)}`;
    for (const type of [undefined, 'http', 'sse']) {
      const error = thrownBy({ ...(type ? { type } : {}), url: `http://user:${password}@127.0.0.1:1/mcp` });
      expect(error, String(type)).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(
          /url has a user name or password, which fetch will not send: .*"Authorization"/,
        ),
        details: { server: 'checked', field: 'url' },
      });
      expect((error as Error).message).not.toContain(password);
    }
    const loaded = await loadMcpConfig(
      { mcpServers: { a: { url: 'https://${AUTH}@example.com/mcp' } } },
      { env: { AUTH: `u:${password}` } },
    );
    expect(loaded.problems.map((problem) => problem.field)).toEqual(['url']);
    expect(loaded.problems[0]?.message).not.toContain(password);
  });

  it('on WebSocket still connects (ws sends it as Basic auth)', async () => {
    const server = await startHttpFixture();
    const provider = createMcpProvider(
      'wsCredentials',
      { type: 'websocket', url: `ws://user:pass@127.0.0.1:${server.port}/ws`, healthIntervalMs: 0 },
      { runDirectory: run.path },
    );
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect(await provider.execute('echo', { message: 'x' }, createToolContext())).toMatchObject({
        ok: true,
      });
    } finally {
      await provider.close?.();
      await server.close();
    }
  });
});

describe('a bearerToken that already says "Bearer "', () => {
  it('is CONFIG_INVALID saying to give the token alone, also after interpolation', async () => {
    for (const bearerToken of ['Bearer tok-123456', 'bearer  tok-123456']) {
      const thrown = thrownBy({ url: URL_SERVER, bearerToken }) as Error;
      expect(thrown, bearerToken).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(/bearerToken starts with "Bearer ".*give the token alone/),
        details: { field: 'bearerToken' },
      });
      expect(thrown.message).not.toContain('tok-123456');
    }
    // after interpolation too
    const loaded = await loadMcpConfig(
      { mcpServers: { remote: { url: URL_SERVER, bearerToken: '${TOKEN}' } } },
      { env: { TOKEN: 'Bearer tok-123456' } },
    );
    expect(loaded.problems.map((problem) => problem.field)).toEqual(['bearerToken']);
  });
});

describe('a bearerToken that is empty or only spaces', () => {
  it('is CONFIG_INVALID naming bearerToken with what to do', () => {
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
      { mcpServers: { docs: { url: 'http://127.0.0.1:9/mcp', bearerToken: '${DOCS_TOKEN:-}' } } },
      { env: {} },
    );
    expect(loaded.servers).toEqual({});
    expect(loaded.problems[0]?.message).toMatch(/bearerToken is empty or only spaces/);
  });
});
