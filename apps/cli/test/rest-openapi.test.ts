import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeToken, runCli, tempDir, writeJsonFile } from './helpers.js';

const PETSTORE = fileURLToPath(
  new URL('../node_modules/@readme/oas-examples/3.0/json/petstore.json', import.meta.url),
);

let dir: { path: string; cleanup(): Promise<void> };
let server: Server;
let origin: string;
const seenKeys: string[] = [];

beforeAll(async () => {
  dir = await tempDir();
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const pet = /^\/v2\/pet\/(\d+)$/.exec(url.pathname);
    const weather = /^\/weather\/([^/]+)$/.exec(url.pathname);
    res.setHeader('content-type', 'application/json');
    if (req.method === 'GET' && pet) {
      const key = String(req.headers.api_key ?? '');
      seenKeys.push(key);
      // a careless API that echoes the credential back: the scrubber must catch it
      res.end(
        JSON.stringify({ id: Number(pet[1]), name: 'Rex', status: 'available', debug: { api_key: key } }),
      );
    } else if (req.method === 'GET' && url.pathname === '/v2/store/inventory') {
      res.end(JSON.stringify({ available: 3, sold: 1 }));
    } else if (req.method === 'GET' && weather) {
      res.end(
        JSON.stringify({
          city: decodeURIComponent(weather[1] ?? ''),
          tempC: 21,
          units: url.searchParams.get('units'),
        }),
      );
    } else {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: 'not found' }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await dir.cleanup();
});

describe('REST and OpenAPI through the CLI', () => {
  it('imports a real OpenAPI document, filtered by tag, into a tool config file, then calls it', async () => {
    const imported = await runCli(
      [
        'openapi',
        'import',
        PETSTORE,
        '--tag',
        'pet',
        '--namespace',
        'pets',
        '--base-url',
        `${origin}/v2`,
        '--out',
        'pets.tools.yaml',
      ],
      { cwd: dir.path },
    );
    expect(imported.code).toBe(0);
    expect(imported.stderr).toMatch(
      /imported 8 tool\(s\) from Swagger Petstore 1\.0\.0 \(OpenAPI 3\.0\) into pets\.tools\.yaml/,
    );
    expect(imported.stderr).toContain('pets__getPetById');
    expect(imported.stderr).toContain('"rest": [{ "namespace": "pets", "file": "pets.tools.yaml" }]');
    const text = await readFile(join(dir.path, 'pets.tools.yaml'), 'utf8');
    expect(text).toContain('getPetById:');
    expect(text).not.toContain('getInventory');

    await writeJsonFile(dir.path, 'toolplane.config.json', {
      rest: [{ namespace: 'pets', file: 'pets.tools.yaml' }],
    });
    const list = await runCli(['tools', 'list', '--json'], { cwd: dir.path });
    expect(list.code).toBe(0);
    const tools = JSON.parse(list.stdout) as { name: string; kind: string }[];
    expect(tools.find((tool) => tool.name === 'pets__getPetById')?.kind).toBe('rest');

    const key = fakeToken('pk_');
    const call = await runCli(['tools', 'call', 'pets__getPetById', '--args', '{"petId":7}', '--json'], {
      cwd: dir.path,
      env: { PETS_API_KEY: key },
    });
    expect(call.code).toBe(0);
    expect(seenKeys).toContain(key);
    expect(call.stdout).toContain('Rex');
    expect(call.stdout).not.toContain(key);
    expect(call.stdout).toContain('[REDACTED');
  });

  it('prints the tool config when there is no --out, and a JSON summary with --json', async () => {
    const [printed, summary] = await Promise.all([
      runCli(['openapi', 'import', PETSTORE, '--tag', 'store'], { cwd: dir.path }),
      runCli(['openapi', 'import', PETSTORE, '--tag', 'user', '--json'], { cwd: dir.path }),
    ]);
    expect(printed.code).toBe(0);
    const config = JSON.parse(printed.stdout) as { tools: Record<string, { method: string }> };
    expect(Object.keys(config.tools)).toContain('getInventory');
    expect(summary.code).toBe(0);
    const parsed = JSON.parse(summary.stdout) as {
      namespace: string;
      tools: string[];
      info: { specification: string };
    };
    expect(parsed.namespace).toBe('petstore');
    expect(parsed.tools).toContain('loginUser');
    expect(parsed.info.specification).toBe('3.0');
  });

  it('serves an OpenAPI document named in the config, and inline REST tools', async () => {
    const configDir = join(dir.path, 'inline');
    await import('node:fs/promises').then((fs) => fs.mkdir(configDir, { recursive: true }));
    await writeFile(
      join(configDir, 'toolplane.config.yaml'),
      [
        'openapi:',
        '  - namespace: store',
        `    source: ${PETSTORE}`,
        '    include: { tags: [store] }',
        `    baseUrl: ${origin}/v2`,
        'rest:',
        '  - namespace: weather',
        '    tools:',
        '      current:',
        '        description: Current weather of a city.',
        '        method: GET',
        `        url: ${origin}/weather/{city}`,
        '        parametersSchema:',
        '          type: object',
        '          properties: { city: { type: string }, units: { type: string } }',
        '          required: [city]',
        '',
      ].join('\n'),
    );
    // the document's api_key scheme reads STORE_API_KEY; without it the call says what to set
    const [noKey, inventory, weather, missing] = await Promise.all([
      runCli(['tools', 'call', 'store__getInventory'], { cwd: configDir }),
      runCli(['tools', 'call', 'store__getInventory'], {
        cwd: configDir,
        env: { STORE_API_KEY: fakeToken('sk_') },
      }),
      runCli(['tools', 'call', 'weather__current', '--args', '{"city":"Oslo","units":"metric"}'], {
        cwd: configDir,
      }),
      runCli(['tools', 'call', 'weather__current', '--args', '{}'], { cwd: configDir }),
    ]);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain('STORE_API_KEY');
    expect(inventory.code).toBe(0);
    expect(inventory.stdout).toContain('"available"');
    expect(weather.code).toBe(0);
    expect(weather.stdout).toContain('Oslo');
    expect(weather.stdout).toContain('metric');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('INVALID_ARGUMENTS');
  });

  it('reports an unreachable REST endpoint as a tool error', async () => {
    const configDir = join(dir.path, 'down');
    await import('node:fs/promises').then((fs) => fs.mkdir(configDir, { recursive: true }));
    // a port that was free a moment ago: bind and close to get one nobody listens on
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    await writeJsonFile(configDir, 'toolplane.config.json', {
      rest: [
        {
          namespace: 'down',
          tools: {
            ping: {
              description: 'Pings.',
              method: 'GET',
              url: `http://127.0.0.1:${port}/ping`,
              parametersSchema: { type: 'object' },
            },
          },
        },
      ],
    });
    const { code, stderr } = await runCli(['tools', 'call', 'down__ping'], { cwd: configDir });
    expect(code).toBe(1);
    expect(stderr).toMatch(/error [A-Z_]+:/);
  });

  it('rejects bad import input with exit code 2 and a hint', async () => {
    await writeFile(join(dir.path, 'not-openapi.json'), JSON.stringify({ hello: 'world' }));
    const [notOpenApi, missing, noMatch, badOut] = await Promise.all([
      runCli(['openapi', 'import', 'not-openapi.json'], { cwd: dir.path }),
      runCli(['openapi', 'import', 'nowhere.yaml'], { cwd: dir.path }),
      runCli(['openapi', 'import', PETSTORE, '--tag', 'no-such-tag'], { cwd: dir.path }),
      runCli(['openapi', 'import', PETSTORE, '--out', 'tools.txt'], { cwd: dir.path }),
    ]);
    expect(notOpenApi.code).toBe(2);
    expect(notOpenApi.stderr).toContain('cannot import not-openapi.json');
    expect(notOpenApi.stderr).toContain('hint:');
    expect(missing.code).toBe(2);
    expect(noMatch.code).toBe(2);
    expect(noMatch.stderr).toContain('CONFIG_INVALID: no operation of');
    expect(noMatch.stderr).toContain("none of the document's 20 operations passes");
    expect(noMatch.stderr).toMatch(
      /hint: check the filters against the document's tags \("pet", "store", "user"\).* \(or check --tag\)/,
    );
    expect(badOut.code).toBe(2);
    expect(existsSync(join(dir.path, 'tools.txt'))).toBe(false);
  });
});

describe('OpenAPI documents whose server is relative, through the CLI', () => {
  it('imports them, names the variable to set, and the calls read the origin from it', async () => {
    const work = join(dir.path, 'relative');
    await import('node:fs/promises').then((fs) => fs.mkdir(work, { recursive: true }));
    await writeJsonFile(work, 'weather.json', {
      openapi: '3.0.3',
      info: { title: 'Weather', version: '1' },
      servers: [{ url: '/' }],
      paths: {
        '/weather/{city}': {
          get: {
            operationId: 'getWeather',
            parameters: [{ name: 'city', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    });
    const imported = await runCli(
      ['openapi', 'import', 'weather.json', '--namespace', 'wx', '--out', 'wx.json'],
      {
        cwd: work,
      },
    );
    expect(imported.code).toBe(0);
    expect(imported.stderr).toContain('set WX_BASE_URL=https://');
    expect(imported.stderr).toContain('--base-url');
    await writeJsonFile(work, 'toolplane.config.json', { rest: [{ namespace: 'wx', file: 'wx.json' }] });
    const unset = await runCli(['tools', 'call', 'wx__getWeather', '--args', '{"city":"Oslo"}'], {
      cwd: work,
      env: { WX_BASE_URL: '' },
    });
    expect(unset.code).not.toBe(0);
    expect(unset.stderr).toContain('set WX_BASE_URL to the URL "/weather/{city}" goes after');
    const set = await runCli(['tools', 'call', 'wx__getWeather', '--args', '{"city":"Oslo"}'], {
      cwd: work,
      env: { WX_BASE_URL: origin },
    });
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('Oslo');
  });
});

describe("OpenAPI OAuth2 token endpoints through the CLI (the document's tokenUrl on another origin)", () => {
  let tokenServer: Server;
  let tokenOrigin: string;
  let api: Server;
  let apiOrigin: string;
  const tokenRequests: string[] = [];
  const apiAuthorizations: string[] = [];
  const accessToken = fakeToken('at_');

  beforeAll(async () => {
    tokenServer = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        tokenRequests.push(`${req.headers.authorization ?? ''} ${body}`);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ access_token: accessToken, token_type: 'Bearer', expires_in: 3600 }));
      });
    });
    api = createServer((req, res) => {
      apiAuthorizations.push(String(req.headers.authorization ?? ''));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ thing: 'ok' }));
    });
    for (const server of [tokenServer, api])
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    tokenOrigin = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}`;
    apiOrigin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    await writeJsonFile(dir.path, 'oauth-doc.json', {
      openapi: '3.0.3',
      info: { title: 'Things', version: '1.0.0' },
      servers: [{ url: apiOrigin }],
      components: {
        securitySchemes: {
          oauth: {
            type: 'oauth2',
            flows: { clientCredentials: { tokenUrl: `${tokenOrigin}/token`, scopes: {} } },
          },
        },
      },
      security: [{ oauth: [] }],
      paths: { '/thing': { get: { operationId: 'getThing', responses: { '200': { description: 'ok' } } } } },
    });
  });
  afterAll(async () => {
    for (const server of [tokenServer, api]) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('openapi import keeps the operations, says which flag allows the token origin, and --allow-token-origin does', async () => {
    const [warned, allowed] = await Promise.all([
      runCli(['openapi', 'import', 'oauth-doc.json', '--namespace', 'things', '--json'], { cwd: dir.path }),
      runCli(
        ['openapi', 'import', 'oauth-doc.json', '--namespace', 'things', '--allow-token-origin', tokenOrigin],
        { cwd: dir.path },
      ),
    ]);
    expect(warned.code).toBe(0);
    const summary = JSON.parse(warned.stdout) as {
      tools: string[];
      warnings: string[];
      diagnostics: { code: string; origin?: string }[];
    };
    expect(summary.tools).toEqual(['getThing']);
    expect(summary.diagnostics).toEqual([
      expect.objectContaining({ code: 'TOKEN_ORIGIN_NOT_ALLOWED', origin: tokenOrigin }),
    ]);
    const line = summary.warnings.find((warning) => warning.includes(tokenOrigin)) ?? '';
    expect(line).toContain(`would send your client id and secret to ${tokenOrigin}`);
    expect(line).toContain(`import again with --allow-token-origin ${tokenOrigin}`);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain(`${tokenOrigin}/token`);
    expect(allowed.stderr).not.toContain('--allow-token-origin');
    expect(tokenRequests).toEqual([]);
  });

  it('a config entry passes allowedTokenOrigins and credentials to the provider', async () => {
    const configDir = join(dir.path, 'oauth');
    await import('node:fs/promises').then((fs) => fs.mkdir(configDir, { recursive: true }));
    const entry = {
      namespace: 'things',
      source: join(dir.path, 'oauth-doc.json'),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: ${VAR} placeholders the provider reads
      credentials: { oauth: { clientId: '${THINGS_ID}', clientSecret: '${THINGS_SECRET}' } },
    };
    await writeJsonFile(configDir, 'toolplane.config.json', { openapi: [entry] });
    const secret = fakeToken('cs_');
    const env = { THINGS_ID: 'client-7', THINGS_SECRET: secret };
    const refused = await runCli(['tools', 'call', 'things__getThing'], { cwd: configDir, env });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('allowedTokenOrigins');
    expect(tokenRequests).toEqual([]);

    await writeJsonFile(configDir, 'toolplane.config.json', {
      openapi: [{ ...entry, allowedTokenOrigins: [tokenOrigin] }],
    });
    const call = await runCli(['tools', 'call', 'things__getThing'], { cwd: configDir, env });
    expect(call.code).toBe(0);
    expect(call.stdout).toContain('ok');
    expect(tokenRequests).toHaveLength(1);
    // the client id and secret went to the token endpoint (form body or basic auth), the token to the API
    const sent = tokenRequests[0] as string;
    const basic = /^Basic (\S+)/.exec(sent)?.[1];
    const credentials = basic ? Buffer.from(basic, 'base64').toString() : decodeURIComponent(sent);
    expect(credentials).toContain('client-7');
    expect(credentials).toContain(secret);
    expect(apiAuthorizations).toContain(`Bearer ${accessToken}`);
  });
});
