// MCP clients for the gateway benchmark: the fixture server called directly, and `serve mcp`
// in front of it over stdio and over streamable HTTP.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** How long the HTTP gateway may take to say where it listens. */
const LISTEN_TIMEOUT_MS = 30_000;

/** A connected client and how to stop it (and the process behind it). */
export interface BenchClient {
  readonly client: Client;
  close(): Promise<void>;
}

/** The SDK client on a stdio server started with `node ...args` in `cwd`. */
export async function stdioClient(args: readonly string[], cwd: string): Promise<BenchClient> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [...args], cwd, stderr: 'ignore' }),
  );
  return { client, close: () => client.close() };
}

/** Resolves with the URL a child prints on `stream` (matched by `pattern`) once it listens. */
function printedUrl(child: ChildProcess, stream: Readable | null, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no URL printed: ${seen}`)), LISTEN_TIMEOUT_MS);
    stream?.setEncoding('utf8');
    stream?.on('data', (text: string) => {
      seen += text;
      const url = pattern.exec(seen)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before it listened: ${seen}`));
    });
  });
}

/**
 * `serve mcp --http 127.0.0.1:0` started with `node ...args` in `cwd`, with a bearer token made
 * for this run in TOOLPLANE_GATEWAY_TOKEN, and the SDK's streamable HTTP client on it.
 */
export async function httpGatewayClient(args: readonly string[], cwd: string): Promise<BenchClient> {
  const token = randomBytes(32).toString('base64url');
  const child = spawn(process.execPath, [...args, '--http', '127.0.0.1:0'], {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', TOOLPLANE_GATEWAY_TOKEN: token },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const url = await printedUrl(child, child.stderr, /serving \d+ tools at (http:\/\/\S+)/);
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    return {
      client,
      async close() {
        await client.close();
        child.kill('SIGTERM');
        await exited;
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

/** Runs `total` calls of `fn` with `inFlight` of them running at any time. */
export async function runInFlight(
  fn: () => Promise<unknown>,
  total: number,
  inFlight: number,
): Promise<void> {
  let started = 0;
  const worker = async (): Promise<void> => {
    while (started < total) {
      started++;
      await fn();
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, total) }, worker));
}

/** The SDK's streamable HTTP client on the bench's echo server over HTTP (no gateway). */
export async function directHttpClient(server: string): Promise<BenchClient> {
  const child = spawn(process.execPath, [server], { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const url = await printedUrl(child, child.stdout, /listening (http:\/\/\S+)/);
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return {
      client,
      async close() {
        await client.close();
        child.kill('SIGTERM');
        await exited;
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}
