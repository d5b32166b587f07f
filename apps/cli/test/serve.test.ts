import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BIN,
  baseEnv,
  exited,
  fakeToken,
  fixturePids,
  fixtureServer,
  gatewayUrl,
  isAlive,
  startCli,
  tempDir,
  waitFor,
  writeJsonFile,
  GATEWAY_TRANSPORT_OPTIONS,
} from './helpers.js';

let dir: { path: string; cleanup(): Promise<void> };
let pidDir: string;
let secret: string;
const started: ChildProcess[] = [];

beforeEach(async () => {
  dir = await tempDir();
  pidDir = join(dir.path, 'pids');
  secret = fakeToken('ghp_');
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    mcpServers: { fixture: fixtureServer({ FIXTURE_PID_DIR: pidDir, FIXTURE_SECRET: secret }) },
    builtin: { workspace: '.', tools: ['read', 'list', 'write'] },
    policy: { deny: ['fixture__fail'] },
  });
});
afterEach(async () => {
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const pid of await fixturePids(pidDir)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await dir.cleanup();
});

type CallResult = {
  content: { type: string; text?: string }[];
  isError?: boolean;
  structuredContent?: unknown;
};

async function exercise(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(['fixture__echo', 'fixture__add', 'read', 'list', 'write']));
  expect(names).not.toContain('fixture__fail');
  const echo = (await client.callTool({
    name: 'fixture__echo',
    arguments: { message: 'through the gateway' },
  })) as CallResult;
  expect(echo.isError).toBeFalsy();
  expect(echo.content[0]?.text).toBe('through the gateway');
  const add = (await client.callTool({ name: 'fixture__add', arguments: { a: 1, b: 2 } })) as CallResult;
  expect(add.structuredContent).toEqual({ sum: 3 });
  // scrubbing happens before the client sees the output
  const leak = (await client.callTool({ name: 'fixture__leak', arguments: {} })) as CallResult;
  expect(leak.content[0]?.text).toContain('token=');
  expect(leak.content[0]?.text).not.toContain(secret);
  // a risky call with nobody at a terminal fails closed, and says how to allow it
  const write = (await client.callTool({
    name: 'write',
    arguments: { path: 'x.txt', content: 'x' },
  })) as CallResult;
  expect(write.isError).toBe(true);
  const text = write.content.map((block) => block.text ?? '').join('\n');
  expect(text).toContain('APPROVAL_REQUIRED');
  expect(text).toContain('policy.autoAllow');
  // denied tools are refused even when called by name
  const denied = (await client.callTool({ name: 'fixture__fail', arguments: {} })) as CallResult;
  expect(denied.isError).toBe(true);
  // bad arguments come back as a tool error, not a protocol error
  const bad = (await client.callTool({ name: 'fixture__add', arguments: { a: 'one' } })) as CallResult;
  expect(bad.isError).toBe(true);
  expect(bad.content.map((block) => block.text).join('')).toContain('INVALID_ARGUMENTS');
}

describe('serve mcp', () => {
  it('serves over stdio to the SDK client and exits when the client closes stdin', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', 'mcp', '--stdio'],
      cwd: dir.path,
      env: baseEnv() as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(transport);
    const gatewayPid = transport.pid;
    expect(gatewayPid).toBeTypeOf('number');
    await exercise(client);
    const pids = await fixturePids(pidDir);
    expect(pids.length).toBe(1);
    expect(isAlive(pids[0] as number)).toBe(true);
    await client.close();
    expect(await waitFor(() => !isAlive(gatewayPid as number), 20_000)).toBe(true);
    expect(await waitFor(() => pids.every((pid) => !isAlive(pid)), 20_000)).toBe(true);
  });

  it('exits when stdin closes, without any client', async () => {
    const child = startCli(['serve', 'mcp'], { cwd: dir.path });
    started.push(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await waitFor(() => stderr.includes('serving'), 30_000)).toBe(true);
    child.stdin?.end();
    expect(await exited(child, 20_000)).toBe(0);
    const pids = await fixturePids(pidDir);
    expect(await waitFor(() => pids.every((pid) => !isAlive(pid)), 10_000)).toBe(true);
  });

  it('answers the calls it received before the client closed stdin, then exits', async () => {
    const child = startCli(['serve', 'mcp', '--stdio'], { cwd: dir.path });
    started.push(child);
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'sh', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'fixture__sleep', arguments: { ms: 300 } },
      },
    ];
    child.stdin?.end(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
    expect(await exited(child, 30_000)).toBe(0);
    const answers = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; result?: { content?: { text: string }[] } });
    expect(answers.find((answer) => answer.id === 2)?.result?.content?.[0]?.text).toBe('slept 300 ms');
  });

  it('serves streamable HTTP on 127.0.0.1 and stops its servers on SIGTERM', async () => {
    const child = startCli(['serve', 'mcp', '--http', '127.0.0.1:0'], { cwd: dir.path });
    started.push(child);
    const url = await gatewayUrl(child, 30_000);
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), GATEWAY_TRANSPORT_OPTIONS));
    await exercise(client);
    // a second client gets its own session on the same gateway
    const second = new Client({ name: 'cli-test-2', version: '1.0.0' });
    await second.connect(new StreamableHTTPClientTransport(new URL(url), GATEWAY_TRANSPORT_OPTIONS));
    expect((await second.listTools()).tools.length).toBeGreaterThan(3);
    await second.close();
    await client.close();
    // DNS rebinding protection: a foreign Host header is refused
    const foreign = await fetch(url, {
      method: 'POST',
      headers: {
        host: 'evil.example:80',
        ...GATEWAY_TRANSPORT_OPTIONS.requestInit.headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
    expect(foreign.status).toBeGreaterThanOrEqual(400);
    const pids = await fixturePids(pidDir);
    expect(pids.length).toBe(1);
    child.kill('SIGTERM');
    expect(await exited(child, 20_000)).toBe(143);
    expect(await waitFor(() => pids.every((pid) => !isAlive(pid)), 10_000)).toBe(true);
  });

  it('servers of a gateway killed outright see stdin close and exit', async () => {
    const child = startCli(['serve', 'mcp', '--stdio'], { cwd: dir.path });
    started.push(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await waitFor(() => stderr.includes('serving'), 30_000)).toBe(true);
    const pids = await fixturePids(pidDir);
    expect(pids.length).toBe(1);
    child.kill('SIGKILL');
    await exited(child, 10_000);
    expect(await waitFor(() => pids.every((pid) => !isAlive(pid)), 20_000)).toBe(true);
  });

  it('rejects a bad --http address with exit code 2', async () => {
    const child = startCli(['serve', 'mcp', '--http', 'localhost'], { cwd: dir.path });
    started.push(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await exited(child, 20_000)).toBe(2);
    expect(stderr).toContain('--http takes HOST:PORT');
  });
});
