import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BIN,
  GATEWAY_AUTH,
  GATEWAY_TOKEN,
  baseEnv,
  exited,
  fixtureServer,
  gatewayUrl,
  initializeBody,
  runCli,
  startCli,
  tempDir,
  writeJsonFile,
} from './helpers.js';

// Who may use `serve mcp --http`: the bearer token (from --token-env, TOOLPLANE_GATEWAY_TOKEN or
// made for the run) and the browser origins allowed with --allow-origin.

let dir: { path: string; cleanup(): Promise<void> };
const started: ChildProcess[] = [];
const clients: Client[] = [];

beforeEach(async () => {
  dir = await tempDir();
  await writeJsonFile(dir.path, 'toolplane.config.json', { mcpServers: { fixture: fixtureServer() } });
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  for (const child of started.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited(child, 20_000);
  }
  await dir.cleanup();
});

function serve(args: readonly string[] = [], env: Record<string, string> = {}): ChildProcess {
  const child = startCli(['serve', 'mcp', '--http', '127.0.0.1:0', ...args], { cwd: dir.path, env });
  started.push(child);
  return child;
}

/** An initialize POST with these extra headers; the status and the JSON-RPC error message. */
async function initialize(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; message: string | undefined; authenticate: string | null }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: initializeBody(1),
  });
  const text = await response.text();
  let message: string | undefined;
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message;
  } catch {
    message = undefined;
  }
  return { status: response.status, message, authenticate: response.headers.get('www-authenticate') };
}

async function connect(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'access-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

describe('serve mcp --http bearer token', () => {
  it('answers a request without Authorization with 401 and says how to send the token', async () => {
    const url = await gatewayUrl(serve());
    const refused = await initialize(url, {});
    expect(refused.status).toBe(401);
    expect(refused.authenticate).toMatch(/^Bearer/);
    expect(refused.message).toContain('send the gateway\'s token as "Authorization: Bearer <token>"');
    expect(refused.message).toContain('the token in TOOLPLANE_GATEWAY_TOKEN');
  });

  it('answers a wrong token with 401', async () => {
    const url = await gatewayUrl(serve());
    const refused = await initialize(url, {
      authorization: `Bearer ${randomBytes(24).toString('base64url')}`,
    });
    expect(refused.status).toBe(401);
    expect(refused.message).toContain("the bearer token is not this gateway's");
    const prefix = await initialize(url, { authorization: `Bearer ${GATEWAY_TOKEN.slice(0, -1)}` });
    expect(prefix.status).toBe(401);
  });

  it('serves initialize and tools/list to a client that sends the token', async () => {
    const url = await gatewayUrl(serve());
    const client = await connect(url, GATEWAY_AUTH);
    expect(client.getServerVersion()?.name).toBe('toolplane');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('fixture__echo');
  });

  it('takes the token from the variable --token-env names', async () => {
    const token = randomBytes(24).toString('base64url');
    const child = serve(['--token-env', 'MY_GATEWAY_TOKEN'], { MY_GATEWAY_TOKEN: token });
    const url = await gatewayUrl(child);
    expect((await initialize(url, GATEWAY_AUTH)).status).toBe(401);
    const client = await connect(url, { authorization: `Bearer ${token}` });
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('makes a token, prints it on stderr and accepts it when TOOLPLANE_GATEWAY_TOKEN is unset', async () => {
    const env = baseEnv();
    delete env.TOOLPLANE_GATEWAY_TOKEN;
    const child = spawn(process.execPath, [BIN, 'serve', 'mcp', '--http', '127.0.0.1:0'], {
      cwd: dir.path,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    started.push(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const url = await gatewayUrl(child);
    const printed = /"Authorization: Bearer ([A-Za-z0-9_-]+)" \(a token made for this run/.exec(stderr);
    expect(printed).not.toBeNull();
    const token = printed?.[1] as string;
    expect(token.length).toBeGreaterThanOrEqual(16);
    expect(token).not.toBe(GATEWAY_TOKEN);
    const refused = await initialize(url, GATEWAY_AUTH);
    expect(refused.status).toBe(401);
    expect(refused.message).toContain('the token made for this run, printed when the gateway started');
    const client = await connect(url, { authorization: `Bearer ${token}` });
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('keeps the token out of tool results', async () => {
    const url = await gatewayUrl(serve());
    const client = await connect(url, GATEWAY_AUTH);
    const result = (await client.callTool({
      name: 'fixture__echo',
      arguments: { message: `the token is ${GATEWAY_TOKEN} here` },
    })) as { content: { text?: string }[]; isError?: boolean };
    expect(result.isError).toBeFalsy();
    const text = result.content.map((block) => block.text ?? '').join('');
    expect(text).toContain('the token is');
    expect(text).not.toContain(GATEWAY_TOKEN);
  });
});

describe('serve mcp --http browser origins', () => {
  it('answers a foreign Origin with 403 even with the token, naming --allow-origin', async () => {
    const url = await gatewayUrl(serve());
    const refused = await initialize(url, { ...GATEWAY_AUTH, origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(refused.message).toContain('--allow-origin https://evil.example');
  });

  it('serves a page of this machine (a loopback origin) with the token, and not without it', async () => {
    const url = await gatewayUrl(serve());
    for (const origin of ['http://localhost:6274', 'http://127.0.0.1:3000', 'http://[::1]:8080']) {
      expect((await initialize(url, { ...GATEWAY_AUTH, origin })).status).toBe(200);
      expect((await initialize(url, { origin })).status).toBe(401);
    }
    // a name that merely starts like one is not loopback
    const lookalike = await initialize(url, { ...GATEWAY_AUTH, origin: 'http://localhost.evil.example' });
    expect(lookalike.status).toBe(403);
  });

  it('serves an origin given with --allow-origin, and still refuses others', async () => {
    const url = await gatewayUrl(serve(['--allow-origin', 'https://app.example']));
    const allowed = await initialize(url, { ...GATEWAY_AUTH, origin: 'https://app.example' });
    expect(allowed.status).toBe(200);
    const other = await initialize(url, { ...GATEWAY_AUTH, origin: 'https://other.example' });
    expect(other.status).toBe(403);
    const tokenless = await initialize(url, { origin: 'https://app.example' });
    expect(tokenless.status).toBe(401);
  });
});

/** An initialize POST sent with this `Host` header (fetch cannot set it); the status. */
function statusWithHost(url: string, host: string): Promise<number | undefined> {
  const body = initializeBody(1);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
          ...GATEWAY_AUTH,
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode);
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

describe('serve mcp --http host names', () => {
  it('refuses a Host that is not the bound address or a loopback name (DNS rebinding)', async () => {
    const url = await gatewayUrl(serve());
    const port = new URL(url).port;
    expect(await statusWithHost(url, `rebind.example:${port}`)).toBe(403);
    expect(await statusWithHost(url, `localhost:${port}`)).toBe(200);
  });
});

describe('serve mcp --http access settings it cannot take', () => {
  it('refuses --token-env naming a variable that is not set, with exit code 2', async () => {
    const outcome = await runCli(
      ['serve', 'mcp', '--http', '127.0.0.1:0', '--token-env', 'TOOLPLANE_TEST_UNSET_VARIABLE'],
      { cwd: dir.path },
    );
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain('--token-env TOOLPLANE_TEST_UNSET_VARIABLE: the variable is not set');
  });

  it('refuses --token-env with something that is not a variable name', async () => {
    const outcome = await runCli(['serve', 'mcp', '--http', '127.0.0.1:0', '--token-env', 'not a name'], {
      cwd: dir.path,
    });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain('--token-env takes the name of an environment variable');
  });

  it('refuses a token shorter than 16 characters, with exit code 2', async () => {
    const outcome = await runCli(['serve', 'mcp', '--http', '127.0.0.1:0'], {
      cwd: dir.path,
      env: { TOOLPLANE_GATEWAY_TOKEN: randomBytes(4).toString('hex') },
    });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain('the token in TOOLPLANE_GATEWAY_TOKEN is too short');
  });

  it('refuses --allow-origin values that are not origins, saying what to write', async () => {
    const [notUrl, withPath] = await Promise.all(
      ['not a url', 'https://a.example/path'].map((value) =>
        runCli(['serve', 'mcp', '--http', '127.0.0.1:0', '--allow-origin', value], { cwd: dir.path }),
      ),
    );
    expect(notUrl?.code).toBe(2);
    expect(notUrl?.stderr).toContain('--allow-origin takes an origin such as https://app.example');
    expect(withPath?.code).toBe(2);
    expect(withPath?.stderr).toContain('--allow-origin takes an origin (scheme://host[:port])');
    expect(withPath?.stderr).toContain('--allow-origin https://a.example');
  });
});
