import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exited, startCli, tempDir, waitFor } from './helpers.js';

// A client of `serve mcp --stdio` that writes lines that are not JSON-RPC messages, closes the
// gateway's stdout, or stops reading it: the gateway answers what it can, bounds what it holds,
// and never crashes.
let dir: { path: string; cleanup(): Promise<void> };
const started: ChildProcess[] = [];
beforeAll(async () => {
  dir = await tempDir();
});
afterEach(() => {
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(() => dir.cleanup());

interface Answer {
  jsonrpc: string;
  id: string | number | null;
  result?: unknown;
  error?: { code: number; message: string };
}

/** A gateway on pipes, with every line it writes to stdout parsed as it arrives. */
function startGateway(): { child: ChildProcess; answers: Answer[]; stderr(): string } {
  const child = startCli(['serve', 'mcp', '--stdio'], { cwd: dir.path });
  started.push(child);
  const answers: Answer[] = [];
  let pending = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) answers.push(JSON.parse(line) as Answer);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin?.on('error', () => {
    // a test that expects the gateway to stop reading may find the pipe closed
  });
  return { child, answers, stderr: () => stderr };
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'junk', version: '1' } },
});

const ping = (id: string): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

describe('serve mcp --stdio and lines that are not JSON-RPC messages', () => {
  it('answers each with a JSON-RPC parse error or invalid request, and keeps serving', async () => {
    const gateway = startGateway();
    const stdin = gateway.child.stdin as NodeJS.WritableStream;
    stdin.write(`${INITIALIZE}\n`);
    expect(await waitFor(() => gateway.answers.some((answer) => answer.id === 'init'), 60_000)).toBe(true);
    const junk: [string | Buffer, number, string | number | null][] = [
      ['garbage{', -32700, null],
      [Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), -32700, null], // not UTF-8
      ['{"foo":1}', -32600, null],
      ['"a string"', -32600, null],
      ['null', -32600, null],
      ['[]', -32600, null],
      ['[{"jsonrpc":"2.0","id":"in-batch","method":"ping"}]', -32600, null],
      ['{"jsonrpc":"2.0","id":"bad-method","method":7}', -32600, 'bad-method'],
      ['{"jsonrpc":"2.0","id":"bad-params","method":"tools/call","params":"x"}', -32600, 'bad-params'],
      ['{"jsonrpc":"1.0","id":"old","method":"ping"}', -32600, 'old'],
    ];
    for (const [line] of junk) {
      stdin.write(line);
      stdin.write('\n');
    }
    stdin.write(`${ping('after-junk')}\n`);
    expect(await waitFor(() => gateway.answers.some((answer) => answer.id === 'after-junk'), 30_000)).toBe(
      true,
    );
    const errors = gateway.answers.filter((answer) => answer.error);
    expect(errors.map((answer) => [answer.error?.code, answer.id])).toEqual(
      junk.map(([, code, id]) => [code, id]),
    );
    for (const answer of errors) {
      expect(answer.jsonrpc).toBe('2.0');
      expect(answer.error?.message).toMatch(/^(Parse error|Invalid Request): ./);
    }
    expect(errors[1]?.error?.message).toContain('UTF-8');
    expect(errors[6]?.error?.message).toContain('one message per line');
    expect(errors[8]?.error?.message).toBe('Invalid Request: "params" must be an object');
    // blank lines are not messages: nothing is answered for them
    stdin.write('\n\r\n   \n');
    stdin.write(`${ping('after-blank')}\n`);
    expect(await waitFor(() => gateway.answers.some((answer) => answer.id === 'after-blank'), 30_000)).toBe(
      true,
    );
    expect(gateway.answers.filter((answer) => answer.error).length).toBe(junk.length);
    stdin.end();
    expect(await exited(gateway.child, 30_000)).toBe(0);
  });

  it('refuses a line over the size limit without buffering it, and keeps serving', async () => {
    const gateway = startGateway();
    const stdin = gateway.child.stdin as NodeJS.WritableStream;
    stdin.write(`${INITIALIZE}\n`);
    expect(await waitFor(() => gateway.answers.some((answer) => answer.id === 'init'), 60_000)).toBe(true);
    // 12 MiB of one JSON string, in 64 KiB pieces, then the newline
    const piece = 'a'.repeat(64 * 1024);
    stdin.write('{"jsonrpc":"2.0","id":"huge","method":"ping","params":{"x":"');
    for (let index = 0; index < 12 * 16; index++) stdin.write(piece);
    stdin.write('"}}\n');
    stdin.write(`${ping('after-huge')}\n`);
    expect(await waitFor(() => gateway.answers.some((answer) => answer.id === 'after-huge'), 60_000)).toBe(
      true,
    );
    const refused = gateway.answers.filter((answer) => answer.error);
    expect(refused.length).toBe(1);
    expect(refused[0]?.id).toBeNull();
    expect(refused[0]?.error?.code).toBe(-32600);
    expect(refused[0]?.error?.message).toMatch(/^Invalid Request: the message is longer than 10 MiB/);
    expect(gateway.answers.some((answer) => answer.id === 'huge')).toBe(false);
    stdin.end();
    expect(await exited(gateway.child, 30_000)).toBe(0);
  });
});

describe('serve mcp --stdio whose client closed stdout', () => {
  it('stops serving and exits instead of running requests whose answers cannot be written', async () => {
    const gateway = startGateway();
    expect(await waitFor(() => gateway.stderr().includes('serving'), 60_000)).toBe(true);
    gateway.child.stdout?.destroy();
    const stdin = gateway.child.stdin as NodeJS.WritableStream;
    stdin.write(`${INITIALIZE}\n`);
    // stdin stays open: only the broken stdout can end the session
    expect(await exited(gateway.child, 30_000)).toBe(0);
    expect(gateway.stderr()).not.toMatch(/EPIPE|at .+:\d+:\d+/);
  });
});

describe('serve mcp --stdio with a client that does not read its answers', () => {
  it('stops reading requests while stdout is full instead of buffering answers without limit', async () => {
    const child = startCli(['serve', 'mcp', '--stdio'], { cwd: dir.path });
    started.push(child);
    child.stdout?.pause();
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const stdin = child.stdin as NodeJS.WritableStream & { writableLength: number };
    stdin.on('error', () => {});
    stdin.write(`${INITIALIZE}\n`);
    expect(await waitFor(() => stderr.includes('serving'), 60_000)).toBe(true);
    const rssKiB = (): number =>
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
    const before = rssKiB();
    // 200 MiB of pings (each answer about as long as its request), none of the answers read
    const pad = 'x'.repeat(4096);
    const pings = 50_000;
    for (let block = 0; block < pings / 1000; block++) {
      let lines = '';
      for (let index = 0; index < 1000; index++) lines += `${ping(`p${block * 1000 + index}-${pad}`)}\n`;
      stdin.write(lines);
    }
    // the gateway reads what fits while stdout has room, then holds; without that it takes
    // every request and keeps every answer in memory
    expect(await waitFor(() => stdin.writableLength === 0, 15_000)).toBe(false);
    expect(rssKiB() - before).toBeLessThan(150 * 1024);
    // once the client reads, every request is answered
    let answered = 0;
    let pending = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      answered += lines.filter((line) => line.includes('"result"')).length;
    });
    child.stdout?.resume();
    expect(await waitFor(() => answered === pings + 1, 120_000)).toBe(true);
    stdin.end();
    expect(await exited(child, 30_000)).toBe(0);
  });
});
