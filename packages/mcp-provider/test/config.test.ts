// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} placeholders in plain strings are what these tests feed the loader
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createMcpProvider,
  createMcpProviders,
  interpolate,
  loadMcpConfig,
  startMcpProviders,
} from '../src/index.js';
import { fixtureServer, tempDirectory } from './helpers/index.js';

const dir = tempDirectory();
afterAll(() => dir.remove());
const env = { TOKEN: 'tok-123456', HOME_DIR: '/home/me', EMPTY: '' };
const where = { env, workspaceFolder: '/work/project', userHome: '/home/me' };

describe('interpolate', () => {
  it('resolves every placeholder form', () => {
    expect(interpolate('${TOKEN}|${env:TOKEN}|${MISSING:-dflt}|${EMPTY:-fallback}', where)).toEqual({
      ok: true,
      value: 'tok-123456|tok-123456|dflt|fallback',
    });
    expect(interpolate('${workspaceFolder}/a:${userHome}', where)).toEqual({
      ok: true,
      value: '/work/project/a:/home/me',
    });
  });

  it('reports what did not resolve instead of leaving the text', () => {
    expect(interpolate('Bearer ${NOPE}', where)).toEqual({ ok: false, missing: ['${NOPE}'] });
  });
});

describe('loadMcpConfig', () => {
  it('reads Claude Desktop / Claude Code / Cursor mcpServers from a file', async () => {
    const path = join(dir.path, '.mcp.json');
    writeFileSync(
      path,
      JSON.stringify({
        mcpServers: {
          files: {
            command: 'npx',
            args: ['-y', 'server-filesystem', '${workspaceFolder}'],
            env: { API_KEY: '${TOKEN}' },
          },
          remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
          windsurf: { serverUrl: 'https://mcp.example.com/sse' },
          gemini: { httpUrl: 'https://mcp.example.com/mcp', timeout: 120000 },
          off: { command: 'x', disabled: true },
        },
      }),
    );
    const loaded = await loadMcpConfig(path, where);
    expect(loaded.format).toBe('mcpServers');
    expect(loaded.problems).toEqual([]);
    expect(loaded.disabled).toEqual(['off']);
    expect(loaded.servers.files).toMatchObject({
      type: 'stdio',
      command: 'npx',
      args: ['-y', 'server-filesystem', '/work/project'],
      env: { API_KEY: 'tok-123456' },
    });
    expect(loaded.servers.remote).toMatchObject({ headers: { Authorization: 'Bearer tok-123456' } });
    expect(loaded.servers.remote?.type).toBeUndefined();
    expect(loaded.servers.windsurf).toMatchObject({ url: 'https://mcp.example.com/sse' });
    expect(loaded.servers.gemini).toMatchObject({ type: 'http', requestTimeoutMs: 120000 });
  });

  it('reads VS Code servers + inputs, with comments', async () => {
    const path = join(dir.path, 'mcp.json');
    writeFileSync(
      path,
      `{
        // VS Code allows comments and trailing commas
        "inputs": [{ "type": "promptString", "id": "api-key", "password": true, "default": "input-value-1" }],
        "servers": {
          "github": { "type": "http", "url": "https://api.example.com/mcp", "headers": { "X-Key": "\${input:api-key}" } },
          "local": { "type": "stdio", "command": "node", "args": ["\${workspaceFolder}/server.js"], },
        },
      }`,
    );
    const loaded = await loadMcpConfig(path, where);
    expect(loaded.format).toBe('vscode');
    expect(loaded.servers.github).toMatchObject({ type: 'http', headers: { 'X-Key': 'input-value-1' } });
    expect(loaded.servers.local).toMatchObject({ args: ['/work/project/server.js'] });
  });

  it("reports an input without a default with the caller's hint, and takes its value from inputs", async () => {
    const document = {
      inputs: [{ type: 'promptString', id: 'api-key', password: true }],
      servers: {
        remote: {
          type: 'http',
          url: 'https://api.example.com/mcp',
          headers: { 'X-Key': '${input:api-key}' },
        },
      },
    };
    const plain = await loadMcpConfig(document, where);
    expect(plain.servers.remote).toBeUndefined();
    expect(plain.problems[0]?.message).toContain(
      "uses ${input:api-key}, an input without a default (VS Code would prompt for it): pass its value in the loader's `inputs` option",
    );
    const hinted = await loadMcpConfig(document, { ...where, inputHint: (id) => `set INPUT_${id}` });
    expect(hinted.problems[0]?.message).toContain('(VS Code would prompt for it): set INPUT_api-key');
    const given = await loadMcpConfig(document, { ...where, inputs: { 'api-key': 'input-value-2' } });
    expect(given.problems).toEqual([]);
    expect(given.servers.remote).toMatchObject({ headers: { 'X-Key': 'input-value-2' } });
  });

  it("reads Zed's context_servers, nested command included", async () => {
    const loaded = await loadMcpConfig(
      {
        context_servers: {
          flat: { command: 'node', args: ['a.js'], env: {} },
          nested: { source: 'custom', command: { path: 'node', args: ['b.js'], env: { A: '1' } } },
        },
      },
      where,
    );
    expect(loaded.format).toBe('zed');
    expect(loaded.servers.nested).toMatchObject({
      type: 'stdio',
      command: 'node',
      args: ['b.js'],
      env: { A: '1' },
    });
  });

  it('reads our typed config with websocket and all options', async () => {
    const loaded = await loadMcpConfig(
      {
        servers: {
          ws: {
            type: 'websocket',
            url: 'ws://127.0.0.1:9/mcp',
            bearerToken: '${TOKEN}',
            lazy: true,
            toolsDenied: ['rm_*'],
          },
        },
      },
      where,
    );
    expect(loaded.servers.ws).toMatchObject({ type: 'websocket', bearerToken: 'tok-123456', lazy: true });
  });

  it('reports each bad server by name and field, and keeps the good ones', async () => {
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          good: { command: 'node' },
          'bad name!': { command: 'node' },
          nocommand: { type: 'stdio', args: ['x'] },
          nothing: { env: {} },
          badurl: { url: 'not a url' },
          badheader: { url: 'https://x.example.com', headers: { Authorization: 'Bearer ${UNSET_TOKEN}' } },
          badtype: { type: 'carrier-pigeon', url: 'https://x.example.com' },
          badtimeout: { command: 'node', requestTimeoutMs: -5 },
          notobject: 'node server.js',
        },
      },
      where,
    );
    expect(Object.keys(loaded.servers)).toEqual(['good']);
    const byServer = Object.fromEntries(loaded.problems.map((problem) => [problem.server, problem]));
    expect(byServer['bad name!']?.message).toMatch(/"bad name!".*letters, digits/);
    expect(byServer.nocommand).toMatchObject({ field: 'command' });
    expect(byServer.nocommand?.message).toMatch(/MCP server "nocommand": command is missing/);
    expect(byServer.nothing?.message).toMatch(/neither "command".*nor "url"/);
    expect(byServer.badurl).toMatchObject({ field: 'url' });
    expect(byServer.badheader).toMatchObject({ field: 'headers.Authorization' });
    expect(byServer.badheader?.message).toContain('${UNSET_TOKEN}');
    expect(byServer.badtype).toMatchObject({ field: 'type' });
    expect(byServer.badtimeout).toMatchObject({ field: 'requestTimeoutMs' });
    expect(byServer.notobject?.message).toContain('must be an object');
  });

  it('throws CONFIG_INVALID for an unreadable or shapeless document', async () => {
    await expect(loadMcpConfig(join(dir.path, 'absent.json'))).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
    });
    const path = join(dir.path, 'broken.json');
    writeFileSync(path, '{ "mcpServers": ');
    await expect(loadMcpConfig(path)).rejects.toThrow(/not valid JSON/);
    await expect(loadMcpConfig({ tools: {} })).rejects.toThrow(/no servers found/);
  });
});

describe('providers from a config', () => {
  it('starts many with limited concurrency; a broken one is reported while the others serve', async () => {
    const run = tempDirectory();
    const loaded = await loadMcpConfig(
      {
        servers: {
          one: fixtureServer(),
          two: fixtureServer(),
          missing: { type: 'stdio', command: '/nonexistent/server' },
          unreachable: { type: 'http', url: 'http://127.0.0.1:9/mcp', startupTimeoutMs: 5000 },
          badheader: { url: 'http://127.0.0.1:9/mcp', headers: { 'X-Api-Key': '${NOT_SET_ANYWHERE}' } },
        },
      },
      { env: {} },
    );
    const providers = createMcpProviders(loaded, { runDirectory: run.path });
    try {
      const outcomes = await startMcpProviders(providers, { concurrency: 2 });
      const byName = Object.fromEntries(outcomes.map((outcome) => [outcome.provider.namespace, outcome]));
      expect(byName.one?.ok).toBe(true);
      expect(byName.two?.ok).toBe(true);
      expect(byName.missing?.ok === false && byName.missing.error.message).toMatch(/"missing".*ENOENT/);
      expect(byName.unreachable?.ok === false && byName.unreachable.error.message).toMatch(/"unreachable"/);
      expect(byName.badheader?.ok === false && byName.badheader.error.code).toBe('CONFIG_INVALID');
      expect(byName.badheader?.ok === false && byName.badheader.error.message).toContain('headers.X-Api-Key');
    } finally {
      await Promise.all(providers.map((provider) => provider.close?.()));
      run.remove();
    }
  });

  it('refuses an invalid server name at creation', () => {
    expect(() => createMcpProvider('no spaces', fixtureServer())).toThrow(/letters, digits/);
  });

  it('refuses to send a header whose placeholder never resolved', async () => {
    const provider = createMcpProvider('literal', {
      url: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: 'Bearer ${TOKEN}' },
    });
    await expect(provider.start?.(AbortSignal.timeout(10_000))).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
    });
  });

  it('lists secret values for the scrubber', () => {
    // a password in the URL: only a WebSocket URL may carry one (fetch refuses it on HTTP)
    const provider = createMcpProvider('secrets', {
      type: 'websocket',
      url: 'wss://user:p4ssw0rd-long@mcp.example.com/mcp',
      headers: { Authorization: 'Bearer abcdef123456' },
    });
    expect(provider.secretValues?.()).toEqual(
      expect.arrayContaining(['Bearer abcdef123456', 'abcdef123456', 'p4ssw0rd-long']),
    );
  });
});

describe('a placeholder nested in a default', () => {
  const env = { SET: 'value', SECRET: 'hidden-value' };

  it('is reported as missing, never read as a literal "${B}" or a value and a stray "}"', () => {
    expect(interpolate('${UNSET:-${SECRET}}', { env })).toEqual({
      ok: false,
      missing: ['${UNSET:-${SECRET}'],
    });
    expect(interpolate('${SET:-${SECRET}}', { env })).toEqual({ ok: false, missing: ['${SET:-${SECRET}'] });
    // a plain default still works
    expect(interpolate('${UNSET:-plain}/${SET}', { env })).toEqual({ ok: true, value: 'plain/value' });
  });

  it('is a problem of that server saying nesting is not supported, and the server is not loaded', async () => {
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          nested: { command: 'node', env: { TOKEN: '${UNSET:-${SECRET}}' } },
          plain: { command: 'node' },
        },
      },
      { env },
    );
    expect(Object.keys(loaded.servers)).toEqual(['plain']);
    expect(loaded.problems).toHaveLength(1);
    expect(loaded.problems[0]).toMatchObject({ server: 'nested', field: 'env.TOKEN' });
    expect(loaded.problems[0]?.message).toMatch(/nests a placeholder.*not supported.*plain text/);
  });
});
