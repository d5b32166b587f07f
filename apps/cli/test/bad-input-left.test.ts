import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { lstat, mkdir, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exited, gatewayUrl, runCli, startCli, tempDir, waitFor } from './helpers.js';

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

describe('huge or endless files', () => {
  it('refuses an --args file over 16 MiB, a device that never ends included, without reading it all', async () => {
    const sparse = join(dir.path, 'huge-args.json');
    await writeFile(sparse, '');
    await truncate(sparse, 1024 * 1024 * 1024);
    for (const file of ['/dev/zero', sparse]) {
      const { code, stderr } = await runCli(['tools', 'call', 'read', '--args', `@${file}`], {
        cwd: dir.path,
      });
      expect(code, file).toBe(2);
      expect(stderr, file).toContain(
        `toolplane: error: INVALID_ARGUMENTS: arguments file ${file} is larger than 16 MiB`,
      );
      expect(stderr, file).toContain('hint: pass a smaller JSON object');
      expect(stderr, file).not.toContain('Invalid string length');
    }
  });

  it('refuses a config file over 64 MiB before reading it', async () => {
    const sparse = join(dir.path, 'huge.config.json');
    await writeFile(sparse, '');
    await truncate(sparse, 1024 * 1024 * 1024);
    for (const command of [
      ['tools', 'list'],
      ['config', 'validate'],
    ]) {
      const { code, stdout, stderr } = await runCli(['--config', 'huge.config.json', ...command], {
        cwd: dir.path,
      });
      expect(code, command.join(' ')).toBe(2);
      expect(stderr, command.join(' ')).toMatch(
        /toolplane: error: CONFIG_INVALID: config .*huge\.config\.json is 1024 MiB; a config file may be at most 64 MiB/,
      );
      expect(`${stdout}${stderr}`).not.toContain('Invalid string length');
    }
  });

  it('says a YAML config nested deeper than the stack is nested too deeply, in words', async () => {
    const documents = {
      'deep-flow.yaml': `policy: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`,
      'deep-block.yaml': `policy:\n${Array.from({ length: 3_000 }, (_, index) => `${' '.repeat(index + 1)}a:`).join('\n')}\n`,
    };
    for (const [name, text] of Object.entries(documents)) {
      await writeFile(join(dir.path, name), text);
      const { code, stderr } = await runCli(['--config', name, 'tools', 'list'], { cwd: dir.path });
      expect(code, name).toBe(2);
      expect(stderr, name).toContain('the document is nested too deeply to read');
      expect(stderr, name).not.toContain('Maximum call stack');
    }
  });
});

describe('config paths that are not files', () => {
  it('says a symbolic link loop or a dangling link is one, instead of "does not exist"', async () => {
    await symlink('loop-b.json', join(dir.path, 'loop-a.json'));
    await symlink('loop-a.json', join(dir.path, 'loop-b.json'));
    await symlink('nowhere.json', join(dir.path, 'dangling.json'));
    const cases = [
      ['loop-a.json', 'is a symbolic link that loops'],
      ['dangling.json', 'is a symbolic link to nowhere.json, which does not exist'],
    ] as const;
    for (const [file, problem] of cases) {
      const { code, stderr } = await runCli(['--config', file, 'tools', 'list'], { cwd: dir.path });
      expect(code, file).toBe(2);
      expect(stderr, file).toContain(`toolplane: error: CONFIG_INVALID: config file ${file} ${problem}`);
    }
  });

  it('asks for a file name when --config is empty, instead of calling the directory a config', async () => {
    const { code, stderr } = await runCli(['--config', '', 'tools', 'list'], { cwd: dir.path });
    expect(code).toBe(2);
    expect(stderr).toContain('toolplane: error: INVALID_ARGUMENTS: --config needs a file name');
  });
});

describe('a signal while the providers start', () => {
  it('ends the command with 128 + the signal, without running it on a closing runtime', async () => {
    const sub = join(dir.path, 'slow-start');
    await mkdir(sub, { recursive: true });
    const marker = join(sub, 'started');
    // an MCP server that starts and never answers initialize
    const server = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); process.stdin.resume(); setInterval(() => {}, 1000);`;
    await writeFile(
      join(sub, 'toolplane.config.json'),
      JSON.stringify({ mcpServers: { slow: { command: process.execPath, args: ['-e', server] } } }),
    );
    const cases = [
      [['serve', 'mcp', '--stdio'], 'SIGTERM', 143],
      [['tools', 'list'], 'SIGINT', 130],
      [['doctor'], 'SIGINT', 130],
    ] as const;
    for (const [args, signal, code] of cases) {
      await rm(marker, { force: true });
      const child = startCli(args, { cwd: sub });
      started.push(child);
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      // a client that sent initialize and waits, stdin open
      child.stdin?.write(`${INITIALIZE}\n`);
      expect(await waitFor(() => existsSync(marker), 60_000)).toBe(true);
      child.kill(signal);
      expect(await exited(child, 30_000), args.join(' ')).toBe(code);
      expect(stdout, args.join(' ')).toBe('');
      expect(stderr, args.join(' ')).not.toContain('the orchestrator is clos');
      expect(stderr, args.join(' ')).not.toContain('serving');
      expect(stderr, args.join(' ')).not.toContain('FAILED');
    }
  });
});

describe('openapi import --out through a symbolic link', () => {
  const petstore = fileURLToPath(
    new URL('../node_modules/@readme/oas-examples/3.0/json/petstore.json', import.meta.url),
  );

  it('writes the file the link points to and keeps the link', async () => {
    const sub = join(dir.path, 'out-links');
    await mkdir(join(sub, 'real'), { recursive: true });
    // two hops, the last one dangling (its target does not exist yet)
    await symlink('real/store.tools.yaml', join(sub, 'middle.yaml'));
    await symlink('middle.yaml', join(sub, 'store.yaml'));
    const { code, stderr } = await runCli(
      ['openapi', 'import', petstore, '--tag', 'store', '--namespace', 'store', '--out', 'store.yaml'],
      { cwd: sub },
    );
    expect(stderr).not.toContain('error');
    expect(code).toBe(0);
    expect((await lstat(join(sub, 'store.yaml'))).isSymbolicLink()).toBe(true);
    expect((await lstat(join(sub, 'middle.yaml'))).isSymbolicLink()).toBe(true);
    const written = await readFile(join(sub, 'real', 'store.tools.yaml'), 'utf8');
    expect(written).toMatch(/^ {2}getInventory:/m);
  });

  it('says a link into a missing directory, or a link loop, cannot be written', async () => {
    const sub = join(dir.path, 'out-bad-links');
    await mkdir(sub, { recursive: true });
    await symlink('missing/x.json', join(sub, 'nowhere.json'));
    await symlink('loop-b.json', join(sub, 'loop-a.json'));
    await symlink('loop-a.json', join(sub, 'loop-b.json'));
    const cases = [
      ['nowhere.json', 'its directory does not exist'],
      ['loop-a.json', 'it is a symbolic link that loops'],
    ] as const;
    for (const [out, problem] of cases) {
      const { code, stderr } = await runCli(['openapi', 'import', petstore, '--out', out], { cwd: sub });
      expect(code, out).toBe(2);
      expect(stderr, out).toContain(`toolplane: error: INVALID_ARGUMENTS: cannot write ${out}: ${problem}`);
    }
    expect((await lstat(join(sub, 'nowhere.json'))).isSymbolicLink()).toBe(true);
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

describe('serve mcp --http and clients that never end their sessions', () => {
  it('keeps at most 100 sessions: the least recently used is closed and answers 404', async () => {
    const child = startCli(['serve', 'mcp', '--http', '127.0.0.1:0'], { cwd: dir.path });
    started.push(child);
    const url = await gatewayUrl(child, 60_000);
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const post = async (body: string, sessionId?: string): Promise<Response> => {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          ...headers,
          ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } : {}),
        },
        body,
      });
      await response.text();
      return response;
    };
    const ids: string[] = [];
    for (let index = 0; index < 102; index++) {
      const response = await post(INITIALIZE);
      expect(response.status).toBe(200);
      ids.push(response.headers.get('mcp-session-id') as string);
      // the second session stays in use, so it is not the least recently used one
      if (index === 50) expect((await post(ping('keep'), ids[1])).status).toBe(200);
    }
    expect((await post(ping('first'), ids[0])).status).toBe(404);
    expect((await post(ping('third'), ids[2])).status).toBe(404);
    expect((await post(ping('second'), ids[1])).status).toBe(200);
    expect((await post(ping('newest'), ids[101])).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited(child, 30_000)).toBe(143);
  });
});
