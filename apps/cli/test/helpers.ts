import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** The built binary under test. */
export const BIN: string = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
/** The fixture MCP server (stdio). */
export const FIXTURE_SERVER: string = fileURLToPath(new URL('./fixtures/mcp-server.mjs', import.meta.url));

/** What a finished run printed. */
export interface RunOutcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The bearer token of every `serve mcp --http` a test starts (through {@link baseEnv}), made for
 * this run; {@link GATEWAY_AUTH} is the header a client sends with it.
 */
export const GATEWAY_TOKEN: string = randomBytes(24).toString('base64url');
/** The `Authorization` header for the gateways tests start. */
export const GATEWAY_AUTH: { readonly authorization: string } = { authorization: `Bearer ${GATEWAY_TOKEN}` };

/** Environment of every run: no colour, no inherited CI-specific noise, the gateway's token. */
export function baseEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', TOOLPLANE_GATEWAY_TOKEN: GATEWAY_TOKEN, ...extra };
}

/** Options of a `StreamableHTTPClientTransport` that sends the gateway's token. */
export const GATEWAY_TRANSPORT_OPTIONS: { requestInit: { headers: Record<string, string> } } = {
  requestInit: { headers: { ...GATEWAY_AUTH } },
};

/** Runs `toolplane args...` to completion (killed after `timeoutMs`). */
export function runCli(
  args: readonly string[],
  options: { cwd: string; input?: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<RunOutcome> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: baseEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const outcome = finished(child, options.timeoutMs);
  child.stdin.end(options.input ?? '');
  return outcome;
}

/** Collects what `child` prints until it closes (killed after `timeoutMs`). */
export function finished(child: ChildProcess, timeoutMs = 60_000): Promise<RunOutcome> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Starts `toolplane args...` and leaves it running. */
export function startCli(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: baseEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** The URL a `serve mcp --http` gateway prints on stderr. */
export const GATEWAY_URL: RegExp = /http:\/\/127\.0\.0\.1:\d+\/mcp/;

/** Reads `child`'s stderr until the gateway prints its URL; throws if it has not within `timeoutMs`. */
export async function gatewayUrl(child: ChildProcess, timeoutMs = 30_000): Promise<string> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = (await waitFor(() => GATEWAY_URL.test(stderr), timeoutMs))
    ? GATEWAY_URL.exec(stderr)?.[0]
    : undefined;
  if (url === undefined)
    throw new Error(`the gateway printed no URL within ${timeoutMs} ms; stderr: ${stderr}`);
  return url;
}

/** Resolves when the process exits (or after `timeoutMs`, with `undefined`). */
export function exited(child: ChildProcess, timeoutMs = 30_000): Promise<number | null | undefined> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** A temporary directory, removed by `cleanup()`. */
export async function tempDir(
  prefix = 'toolplane-cli-',
): Promise<{ path: string; cleanup(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

/** Writes `value` as JSON to `dir/name` and returns the path. */
export async function writeJsonFile(dir: string, name: string, value: unknown): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
  return file;
}

/** Whether a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Polls `predicate` every `intervalMs` until it holds or `timeoutMs` passes; returns its last value. */
export async function waitFor(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  intervalMs = 100,
): Promise<boolean> {
  const attempts = Math.ceil(timeoutMs / intervalMs);
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (await predicate()) return true;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return predicate();
}

/** How many calls a {@link holdCallsUntilCancelled} server started and saw cancelled. */
export interface HeldCalls {
  started: number;
  cancelled: number;
}

/**
 * Makes `server` (an MCP SDK server) answer every tools/call only once the call is cancelled,
 * counting both in `counts`: a tool that runs until its caller gives up.
 */
export function holdCallsUntilCancelled(server: Server, counts: HeldCalls): void {
  server.setRequestHandler(CallToolRequestSchema, async (_request, extra) => {
    counts.started++;
    await new Promise<void>((resolve) =>
      extra.signal.addEventListener('abort', () => {
        counts.cancelled++;
        resolve();
      }),
    );
    return { content: [] };
  });
}

/** An `mcpServers` entry that starts the fixture server. */
export function fixtureServer(env: Record<string, string> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [FIXTURE_SERVER], env };
}

/** The fixture MCP server that asks its client: elicitation forms, sampling, roots, logging. */
export const FEATURES_SERVER: string = fileURLToPath(
  new URL('./fixtures/features-server.mjs', import.meta.url),
);

/** An `mcpServers` entry that starts the features server. */
export function featuresServer(env: Record<string, string> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [FEATURES_SERVER], env };
}

/** A config with the features server as `feat`, its tools allowed outright (or those of `autoAllow`). */
export function featuresConfig(autoAllow: readonly string[] = ['feat__*']): Record<string, unknown> {
  return { mcpServers: { feat: featuresServer() }, policy: { autoAllow } };
}

/**
 * Whether util-linux `script` is here to give a test a real pseudo-terminal. In CI its absence
 * is an error, not a reason to skip.
 */
export function scriptAvailable(): boolean {
  const available = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!available && process.env.CI === 'true')
    throw new Error('terminal tests need `script` (util-linux) in CI');
  return available;
}

/** Fake credential, generated per run (never a real secret). */
export function fakeToken(prefix = 'ghp_'): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = prefix;
  for (let index = 0; index < 36; index++) out += alphabet[Math.floor(Math.random() * alphabet.length)];
  return out;
}

/** Pids the fixture servers wrote into `dir` (see fixtures/mcp-server.mjs). */
export async function fixturePids(dir: string): Promise<number[]> {
  const { readdir } = await import('node:fs/promises');
  try {
    return (await readdir(dir))
      .filter((name) => name.endsWith('.pid'))
      .map((name) => Number.parseInt(name, 10));
  } catch {
    return [];
  }
}

/** The body of an MCP `initialize` request a test client sends to the gateway. */
export function initializeBody(id: number | string = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
}
