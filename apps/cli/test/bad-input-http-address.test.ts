import { type Server, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, initializeBody, runCli, startCli, tempDir, waitFor, GATEWAY_AUTH } from './helpers.js';

// The address `serve mcp --http` prints when it listens on every interface, and what it says of
// an address it cannot take: an IPv6 address without brackets, no port, a port out of range or in use.
const STACK_LINE = /^\s+at .+\(?.*:\d+:\d+\)?$/m;

let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => dir.cleanup());

describe('serve mcp --http on every interface', () => {
  it('prints a loopback URL a client can use, with the port actually bound', async () => {
    const gateway = startCli(['serve', 'mcp', '--http', '0.0.0.0:0'], { cwd: dir.path });
    let stderr = '';
    gateway.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    try {
      const printed = /serving \d+ tools at (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/;
      expect(await waitFor(() => printed.test(stderr) && /every interface/.test(stderr), 30_000)).toBe(true);
      const [, url, port] = printed.exec(stderr) ?? [];
      expect(Number(port)).toBeGreaterThan(0);
      expect(stderr).not.toContain('0.0.0.0:');
      expect(stderr).toMatch(/every interface/);
      const response = await fetch(url as string, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...GATEWAY_AUTH,
        },
        body: initializeBody(1),
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('"serverInfo"');
    } finally {
      gateway.kill('SIGTERM');
      await exited(gateway);
    }
  });
});

describe('serve mcp --http with an address it cannot take', () => {
  it('says what to write: an IPv6 address in brackets, a port, a port in range', async () => {
    const values = ['::1:0', '::1', 'fe80::1:8808', 'localhost', '127.0.0.1:99999'];
    const outcomes = await Promise.all(
      values.map((value) => runCli(['serve', 'mcp', '--http', value], { cwd: dir.path })),
    );
    for (const outcome of outcomes) {
      expect(outcome.code).toBe(2);
      expect(outcome.stderr).toMatch(/^toolplane: error: INVALID_ARGUMENTS: --http takes HOST:PORT/);
    }
    const [loopback, bare, other, noPort, bigPort] = outcomes.map((outcome) => outcome.stderr);
    expect(loopback).toMatch(/got ::1:0: an IPv6 address goes in brackets: write --http \[::1\]:0/);
    expect(bare).toMatch(/an IPv6 address goes in brackets: write --http \[::1\]:PORT/);
    expect(other).toMatch(/write --http \[fe80::1\]:8808/);
    expect(noPort).toMatch(/give the port too: write --http localhost:PORT/);
    expect(bigPort).toMatch(/the port must be 0 to 65535, got 99999/);
  });
});

describe('serve mcp --http on a port in use', () => {
  let blocker: Server;
  let blockedPort = 0;
  beforeAll(async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    blockedPort = (blocker.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

  it('says the port is in use and what to do, with exit code 2', async () => {
    const { code, stderr } = await runCli(['serve', 'mcp', '--http', `127.0.0.1:${blockedPort}`], {
      cwd: dir.path,
    });
    expect(code).toBe(2);
    expect(stderr).toContain(
      `toolplane: error: INVALID_ARGUMENTS: cannot listen on 127.0.0.1:${blockedPort}: the port is already in use`,
    );
    expect(stderr).toContain('hint: choose another HOST:PORT for --http');
    expect(stderr).not.toMatch(STACK_LINE);
  });
});
