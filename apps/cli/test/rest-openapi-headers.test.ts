import { readFile, writeFile } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeToken, runCli, tempDir, writeJsonFile } from './helpers.js';

// Provider-wide headers of REST and OpenAPI entries (an Authorization header for every tool of an
// API whose document declares no security scheme), the variables they read, and what a user
// hears when one is unset: the CLI config key that reads it, never a library option.

const VARIABLE = 'TOOLPLANE_TEST_API_TOKEN';
/** A document without security schemes, as GitHub's is for its token. */
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Issues', version: '1.0.0' },
  paths: {
    '/issues': {
      get: {
        operationId: 'listIssues',
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};

let dir: { path: string; cleanup(): Promise<void> };
let server: Server;
let origin: string;
const token = fakeToken('ghp_');
/** The Authorization header of every request the server got, by path. */
const seen = new Map<string, string | undefined>();

beforeAll(async () => {
  dir = await tempDir();
  // answers with the headers it got, so a test sees what was sent
  server = createServer((req, res) => {
    seen.set(req.url ?? '', req.headers.authorization);
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        path: req.url,
        authorization: req.headers.authorization ?? null,
        own: req.headers['x-own'] ?? null,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await writeJsonFile(dir.path, 'issues.openapi.json', DOCUMENT);
  const tool = (path: string, extra: Record<string, unknown> = {}) => ({
    description: 'Reads something.',
    method: 'GET',
    url: `${origin}${path}`,
    parametersSchema: { type: 'object', properties: {} },
    ...extra,
  });
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    builtin: false,
    openapi: [
      {
        namespace: 'gh',
        source: 'issues.openapi.json',
        baseUrl: origin,
        headers: { Authorization: `Bearer \${${VARIABLE}}` },
      },
    ],
    rest: [
      {
        namespace: 'api',
        headers: { authorization: `Bearer \${${VARIABLE}}`, 'x-own': 'shared' },
        tools: {
          shared: tool('/shared'),
          own: tool('/own', { headers: { 'X-Own': 'mine' } }),
        },
      },
    ],
  });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await dir.cleanup();
});

const call = (tool: string, env: Record<string, string> = {}) =>
  runCli(['tools', 'call', tool, '--args', '{}', '--json'], { cwd: dir.path, env, timeoutMs: 60_000 });

/** What the server echoed, from a `tools call --json` result. */
function echoed(stdout: string): { authorization: string | null; own: string | null } {
  const result = JSON.parse(stdout) as { content: { type: string; text?: string }[] };
  return JSON.parse(result.content[0]?.text ?? '{}') as { authorization: string | null; own: string | null };
}

describe('provider-wide headers of REST and OpenAPI entries', () => {
  it("sends them with every tool's request, read from the environment; a tool's own header wins", async () => {
    const env = { [VARIABLE]: token };
    const [openapi, shared, own] = await Promise.all([
      call('gh__listIssues', env),
      call('api__shared', env),
      call('api__own', env),
    ]);
    for (const outcome of [openapi, shared, own]) expect(outcome.code, outcome.stderr).toBe(0);
    // the scrubber hides the token's value in output: the server saw it, the output says so redacted
    for (const outcome of [openapi, shared, own]) {
      expect(echoed(outcome.stdout).authorization).toMatch(/^Bearer /);
      expect(outcome.stdout).not.toContain(token);
    }
    for (const path of ['/issues', '/shared', '/own']) expect(seen.get(path)).toBe(`Bearer ${token}`);
    expect(echoed(shared.stdout).own).toBe('shared');
    expect(echoed(own.stdout).own).toBe('mine');
  });

  it('fails a call whose variable is unset with CONFIG_INVALID naming the CLI config key that reads it', async () => {
    const [openapi, rest] = await Promise.all([call('gh__listIssues'), call('api__shared')]);
    for (const outcome of [openapi, rest]) {
      expect(outcome.code).toBe(1);
      expect(outcome.stdout + outcome.stderr).toContain('CONFIG_INVALID');
      expect(outcome.stdout + outcome.stderr).not.toContain('env option');
    }
    expect(openapi.stdout + openapi.stderr).toContain(
      `set ${VARIABLE} in the environment toolplane runs in (the CLI config reads it at openapi[0].headers.Authorization)`,
    );
    expect(rest.stdout + rest.stderr).toContain('the CLI config reads it at rest[0].headers.authorization');
  });

  it('config validate warns about each unset variable at the key that reads it, and not once it is set', async () => {
    const [unset, set] = await Promise.all([
      runCli(['config', 'validate', '--json'], { cwd: dir.path }),
      runCli(['config', 'validate', '--json'], { cwd: dir.path, env: { [VARIABLE]: token } }),
    ]);
    expect(unset.code).toBe(0);
    const { valid, warnings } = JSON.parse(unset.stdout) as {
      valid: boolean;
      warnings: { path: string; line?: number; message: string }[];
    };
    expect(valid).toBe(true);
    expect(warnings.map((warning) => warning.path).sort()).toEqual([
      'openapi[0].headers.Authorization',
      'rest[0].headers.authorization',
    ]);
    for (const warning of warnings) {
      expect(warning.message).toContain(`environment variable ${VARIABLE} is not set`);
      expect(warning.line).toBeGreaterThan(1);
    }
    expect(set.code).toBe(0);
    expect((JSON.parse(set.stdout) as { warnings: unknown[] }).warnings).toEqual([]);
  });

  it('openapi import --header pins the header on every tool and says which variables the config reads', async () => {
    const header = `Authorization: Bearer \${${VARIABLE}}`;
    const [text, json, bad] = await Promise.all([
      runCli(
        [
          'openapi',
          'import',
          'issues.openapi.json',
          '--base-url',
          origin,
          '--header',
          header,
          '--out',
          'gh.tools.json',
        ],
        {
          cwd: dir.path,
        },
      ),
      runCli(
        ['openapi', 'import', 'issues.openapi.json', '--base-url', origin, '--header', header, '--json'],
        {
          cwd: dir.path,
        },
      ),
      runCli(['openapi', 'import', 'issues.openapi.json', '--header', 'no colon here'], { cwd: dir.path }),
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toContain(
      `the tool config reads these environment variables at each call: ${VARIABLE}`,
    );
    const written = JSON.parse(await readFile(join(dir.path, 'gh.tools.json'), 'utf8')) as Record<
      string,
      { headers?: Record<string, string> }
    >;
    const tools = Object.values((written as { tools?: typeof written }).tools ?? written);
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) expect(tool.headers?.authorization).toBe(`Bearer \${${VARIABLE}}`);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { variables: string[] }).variables).toEqual([VARIABLE]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not "name: value"');
  });

  it('a tool file written that way, used in a rest entry, sends the header and names rest[i].file when unset', async () => {
    const sub = join(dir.path, 'from-file');
    await import('node:fs/promises').then((fs) => fs.mkdir(sub, { recursive: true }));
    const imported = await runCli(
      [
        'openapi',
        'import',
        join(dir.path, 'issues.openapi.json'),
        '--namespace',
        'gh',
        '--base-url',
        origin,
        '--header',
        `Authorization: Bearer \${${VARIABLE}}`,
        '--out',
        'gh.tools.json',
      ],
      { cwd: sub },
    );
    expect(imported.code, imported.stderr).toBe(0);
    await writeFile(
      join(sub, 'toolplane.config.json'),
      JSON.stringify({ builtin: false, rest: [{ namespace: 'gh', file: 'gh.tools.json' }] }),
    );
    const [withToken, without] = await Promise.all([
      runCli(['tools', 'call', 'gh__listIssues', '--args', '{}', '--json'], {
        cwd: sub,
        env: { [VARIABLE]: token },
      }),
      runCli(['tools', 'call', 'gh__listIssues', '--args', '{}'], { cwd: sub }),
    ]);
    expect(withToken.code, withToken.stderr).toBe(0);
    expect(echoed(withToken.stdout).authorization).toMatch(/^Bearer /);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('the CLI config reads it at rest[0].file');
  });
});
