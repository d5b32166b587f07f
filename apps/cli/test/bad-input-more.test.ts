import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { type Server, createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIN,
  baseEnv,
  exited,
  finished,
  gatewayUrl,
  initializeBody,
  runCli,
  startCli,
  tempDir,
} from './helpers.js';

// A user mistake ends with one `toolplane: error: CODE: message` line: no stack trace.
const STACK_LINE = /^\s+at .+\(?.*:\d+:\d+\)?$/m;
const BOM = '\uFEFF';

let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  await writeFile(join(dir.path, 'notes.txt'), 'first line\nsecond line\n');
});
afterAll(() => dir.cleanup());

describe('bad command lines', () => {
  it('gives unknown commands, unknown options and missing option values a stable code', async () => {
    const cases = [['frobnicate'], ['--bogus', 'tools', 'list'], ['tools', 'call', 'read', '--timeout']];
    for (const args of cases) {
      const { code, stderr } = await runCli(args, { cwd: dir.path });
      expect(code, args.join(' ')).toBe(2);
      expect(stderr, args.join(' ')).toMatch(/^toolplane: error: INVALID_ARGUMENTS: /);
      expect(stderr, args.join(' ')).toContain('--help');
      expect(stderr).not.toMatch(STACK_LINE);
    }
  });

  it('says the arguments are null, not "object", for --args null', async () => {
    const { code, stderr } = await runCli(['tools', 'call', 'read', '--args', 'null'], { cwd: dir.path });
    expect(code).toBe(2);
    expect(stderr).toContain(
      'toolplane: error: INVALID_ARGUMENTS: arguments from --args must be a JSON object, got null',
    );
  });

  it('reads an arguments file that starts with a UTF-8 byte order mark', async () => {
    await writeFile(join(dir.path, 'bom-args.json'), `${BOM}${JSON.stringify({ path: 'notes.txt' })}`);
    const { code, stdout } = await runCli(['tools', 'call', 'read', '--args', '@bom-args.json'], {
      cwd: dir.path,
    });
    expect(code).toBe(0);
    expect(stdout).toContain('first line');
  });

  it('refuses --timeout values that are not plain digits instead of reading 0x10 as 16 ms', async () => {
    const values = ['0x10', '1e3', ' 5', '1.5', '-5', '0'];
    const runs = await Promise.all(
      values.map((value) =>
        runCli(['tools', 'call', 'read', '--args', '{"path":"notes.txt"}', '--timeout', value], {
          cwd: dir.path,
        }),
      ),
    );
    for (const [index, { code, stderr }] of runs.entries()) {
      const value = values[index];
      expect(code, value).toBe(2);
      expect(stderr, value).toContain(
        `toolplane: error: INVALID_ARGUMENTS: --timeout must be a positive whole number of milliseconds, got ${value}`,
      );
      expect(stderr, value).toContain('hint: for example --timeout 30000');
    }
  });

  it('asks for a file name after a bare --args @', async () => {
    const { code, stderr } = await runCli(['tools', 'call', 'read', '--args', '@'], { cwd: dir.path });
    expect(code).toBe(2);
    expect(stderr).toContain('toolplane: error: INVALID_ARGUMENTS: --args @ needs a file name after the @');
  });

  it('refuses arguments on stdin that end in the middle of the JSON', async () => {
    const { code, stderr } = await runCli(['tools', 'call', 'read'], { cwd: dir.path, input: '{"path":' });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^toolplane: error: INVALID_ARGUMENTS: arguments from stdin are not valid JSON/);
    expect(stderr).toContain('hint:');
  });
});

describe('bad config paths', () => {
  it('says a directory given as the config is a directory', async () => {
    await mkdir(join(dir.path, 'conf.d'), { recursive: true });
    const { code, stderr } = await runCli(['--config', 'conf.d', 'tools', 'list'], { cwd: dir.path });
    expect(code).toBe(2);
    expect(stderr).toMatch(/toolplane: error: CONFIG_INVALID: config .*conf\.d is a directory/);
    expect(stderr).not.toMatch(STACK_LINE);
  });

  it('reads a JSON config saved with a UTF-8 byte order mark', async () => {
    const config = { builtin: { workspace: '.', tools: ['read', 'write'] } };
    await writeFile(join(dir.path, 'bom.config.json'), `${BOM}${JSON.stringify(config)}`);
    const { code, stdout, stderr } = await runCli(
      ['--config', 'bom.config.json', 'tools', 'list', '--json'],
      {
        cwd: dir.path,
      },
    );
    expect(stderr).not.toContain('CONFIG_INVALID');
    expect(code).toBe(0);
    const names = (JSON.parse(stdout) as { name: string }[]).map((tool) => tool.name);
    expect(names).toContain('write');
  });
});

describe('hostile config documents', () => {
  it('refuses YAML aliases that expand exponentially, as a config error', async () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let level = 1; level < 7; level++) {
      const name = String.fromCharCode(97 + level);
      const previous = String.fromCharCode(96 + level);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]`);
    }
    levels.push('mcpServers: { x: { command: echo, args: *g } }');
    await writeFile(join(dir.path, 'bomb.yaml'), `${levels.join('\n')}\n`);
    const { code, stderr } = await runCli(['--config', 'bomb.yaml', 'tools', 'list'], { cwd: dir.path });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^toolplane: error: CONFIG_INVALID: invalid config: bomb\.yaml:1:1 .*alias/);
    expect(stderr).not.toMatch(STACK_LINE);
  });

  it('refuses JSON nested deeper than the stack, as a config error', async () => {
    const depth = 200_000;
    await writeFile(join(dir.path, 'deep.json'), `{"policy":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    for (const command of [
      ['tools', 'list'],
      ['config', 'validate'],
    ]) {
      const { code, stderr, stdout } = await runCli(['--config', 'deep.json', ...command], { cwd: dir.path });
      expect(code, command.join(' ')).toBe(2);
      expect(`${stdout}${stderr}`, command.join(' ')).toContain('the document is nested too deeply to read');
      expect(stderr).not.toContain('Maximum call stack');
    }
  });

  it('keeps a "__proto__" key of a JSON config a key (an unknown field), not the config\'s prototype', async () => {
    const sub = join(dir.path, 'proto');
    await mkdir(sub, { recursive: true });
    const config = '{"__proto__":{"builtin":{"workspace":"/","tools":"all"}}}';
    await writeFile(join(sub, 'toolplane.config.json'), config);
    const { code, stdout, stderr } = await runCli(['tools', 'list', '--json'], { cwd: sub });
    expect(stdout).not.toContain('bash');
    expect(code).toBe(2);
    expect(stderr).toContain(
      'toolplane: error: CONFIG_INVALID: invalid config: toolplane.config.json:1:2  __proto__  unknown field "__proto__"',
    );
  });
});

describe('a file as the built-in workspace', () => {
  it('is a config error for calls and for config validate, not a provider that fails every call', async () => {
    const sub = join(dir.path, 'file-workspace');
    await mkdir(sub, { recursive: true });
    await writeFile(join(sub, 'notes.txt'), 'text\n');
    await writeFile(
      join(sub, 'toolplane.config.json'),
      JSON.stringify({ builtin: { workspace: 'notes.txt', tools: ['read', 'list'] } }),
    );
    const call = await runCli(['tools', 'call', 'read', '--args', '{"path":"notes.txt"}'], { cwd: sub });
    expect(call.code).toBe(2);
    expect(call.stderr).toContain(
      'toolplane: error: CONFIG_INVALID: builtin.workspace notes.txt is a file, not a directory',
    );
    const validate = await runCli(['config', 'validate'], { cwd: sub });
    expect(validate.code).toBe(2);
    expect(validate.stdout).toMatch(/builtin\.workspace {2}notes\.txt is a file, not a directory/);
  });
});

describe('closed output', () => {
  it('does not crash when the reader of stdout goes away (| head -1)', async () => {
    const lines = Array.from({ length: 100_000 }, (_, index) => `line ${index + 1}`);
    await writeFile(join(dir.path, 'big.txt'), `${lines.join('\n')}\n`);
    const args = JSON.stringify({ path: 'big.txt', limit: 100_000 });
    // a real pipe into `head`, which exits after one line while the CLI is still writing
    // (a child's 'pipe' stdio is a socket pair, which does not fail the same way)
    const script = 'set -o pipefail; "$0" "$1" tools call read --args "$2" --json | head -1';
    const child = spawn('bash', ['-c', script, process.execPath, BIN, args], {
      cwd: dir.path,
      env: baseEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { code, stdout, stderr } = await finished(child);
    expect(stdout).toBe('{\n');
    expect(stderr).not.toContain('EPIPE');
    expect(stderr).not.toMatch(STACK_LINE);
    expect(code).toBe(0);
  });
});

describe('serve mcp --http', () => {
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

  it('answers a body that is not JSON with a JSON-RPC parse error, and keeps serving', async () => {
    const child = startCli(['serve', 'mcp', '--http', '127.0.0.1:0'], { cwd: dir.path });
    try {
      const url = await gatewayUrl(child, 60_000);
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      for (const body of ['garbage{', '', Buffer.from([0xff, 0xfe, 0x7b])]) {
        const response = await fetch(url, { method: 'POST', headers, body });
        expect(response.status).toBe(400);
        const answer = (await response.json()) as { error: { code: number; message: string } };
        expect(answer.error.code).toBe(-32700);
        expect(answer.error.message).toMatch(/^Parse error: /);
      }
      // a proper initialize still works afterwards
      const initialize = await fetch(url, {
        method: 'POST',
        headers,
        body: initializeBody(1),
      });
      expect(initialize.status).toBe(200);
      await initialize.body?.cancel();
      child.kill('SIGTERM');
      expect(await exited(child, 60_000)).toBe(143);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});

describe('openapi import --out', () => {
  const petstore = fileURLToPath(
    new URL('../node_modules/@readme/oas-examples/3.0/json/petstore.json', import.meta.url),
  );

  it('says the directory of --out does not exist, or that --out is a directory', async () => {
    await mkdir(join(dir.path, 'out-dir.json'), { recursive: true });
    const cases = [
      [join(dir.path, 'missing', 'tools.json'), 'its directory does not exist'],
      ['out-dir.json', 'it is a directory'],
    ] as const;
    for (const [out, problem] of cases) {
      const { code, stderr } = await runCli(['openapi', 'import', petstore, '--out', out], { cwd: dir.path });
      expect(code, out).toBe(2);
      expect(stderr, out).toContain(`toolplane: error: INVALID_ARGUMENTS: cannot write ${out}: ${problem}`);
      expect(stderr, out).toContain('hint: give --out a file path in an existing, writable directory');
      expect(stderr).not.toMatch(STACK_LINE);
    }
  });
});
