import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, finished, runCli, tempDir, writeJsonFile } from './helpers.js';

// An operator at a terminal: options given twice, arguments of the wrong type.
const STACK_LINE = /^\s+at .+\(?.*:\d+:\d+\)?$/m;

let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  await writeFile(join(dir.path, 'notes.txt'), 'first line\nsecond line\n');
  await writeJsonFile(dir.path, 'a.json', { builtin: { workspace: '.', tools: ['read', 'write'] } });
  await writeJsonFile(dir.path, 'b.json', { builtin: { workspace: '.', tools: ['read'] } });
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

  it('refuses arguments on stdin that end in the middle of the JSON', async () => {
    const { code, stderr } = await runCli(['tools', 'call', 'read'], { cwd: dir.path, input: '{"path":' });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^toolplane: error: INVALID_ARGUMENTS: arguments from stdin are not valid JSON/);
    expect(stderr).toContain('hint:');
  });
});

describe('an option that takes one value, given twice', () => {
  // Keeping the last one and dropping the first without a word would run a call with other
  // arguments, another deadline or another config than the operator also typed.
  it('is INVALID_ARGUMENTS naming the option, and nothing runs', async () => {
    const cases: { args: string[]; option: string }[] = [
      {
        args: [
          '-c',
          'a.json',
          'tools',
          'call',
          'write',
          '--args',
          '{"path":"one.txt","content":"1"}',
          '--args',
          '{"path":"two.txt","content":"2"}',
        ],
        option: '--args',
      },
      {
        args: [
          'tools',
          'call',
          'read',
          '--args',
          '{"path":"notes.txt"}',
          '--timeout',
          '5',
          '--timeout',
          '60000',
        ],
        option: '--timeout',
      },
      { args: ['--config', 'a.json', '--config', 'b.json', 'tools', 'list'], option: '--config' },
      { args: ['-c', 'a.json', '-c', 'b.json', 'tools', 'list'], option: '--config' },
      { args: ['tools', 'list', '--agent', 'a', '--agent', 'b'], option: '--agent' },
      { args: ['policy', 'explain', 'read', '--user', 'a', '--user', 'b'], option: '--user' },
      { args: ['policy', 'explain', 'read', '--channel', 'a', '--channel', 'b'], option: '--channel' },
      { args: ['openapi', 'import', 'x.json', '--out', 'a.json', '--out', 'b.yaml'], option: '--out' },
      {
        args: ['openapi', 'import', 'x.json', '--namespace', 'a', '--namespace', 'b'],
        option: '--namespace',
      },
      {
        args: ['openapi', 'import', 'x.json', '--base-url', 'http://a', '--base-url', 'http://b'],
        option: '--base-url',
      },
      { args: ['serve', 'mcp', '--http', '127.0.0.1:0', '--http', '127.0.0.1:0'], option: '--http' },
    ];
    const runs = await Promise.all(
      cases.map(({ args }) => runCli(args, { cwd: dir.path, timeoutMs: 60_000 })),
    );
    for (const [index, { code, signal, stdout, stderr }] of runs.entries()) {
      const { args, option } = cases[index] ?? { args: [], option: '' };
      const label = args.join(' ');
      expect(signal, label).toBeNull();
      expect(code, label).toBe(2);
      expect(stderr, label).toContain(`toolplane: error: INVALID_ARGUMENTS: ${option} is given twice`);
      expect(stderr, label).toContain('hint:');
      expect(stderr, label).not.toMatch(STACK_LINE);
      expect(stdout, label).toBe('');
    }
    expect(existsSync(join(dir.path, 'one.txt'))).toBe(false);
    expect(existsSync(join(dir.path, 'two.txt'))).toBe(false);
  });

  it('takes repeatable options and switches more than once', async () => {
    const [tags, json] = await Promise.all([
      runCli(['openapi', 'import', 'nowhere.yaml', '--tag', 'a', '--tag', 'b'], { cwd: dir.path }),
      runCli(['tools', 'list', '--json', '--json'], { cwd: dir.path }),
    ]);
    // the document is missing: refused for that, not for the repeated --tag
    expect(tags.code).toBe(2);
    expect(tags.stderr).not.toContain('given twice');
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { name: string }[]).map((tool) => tool.name)).toContain('read');
  });
});

describe('--args of the wrong JSON type', () => {
  it('says what it got for a string, a number and a boolean', async () => {
    const values = ['"notes.txt"', '42', 'true'];
    const runs = await Promise.all(
      values.map((value) => runCli(['tools', 'call', 'read', '--args', value], { cwd: dir.path })),
    );
    for (const [index, kind] of ['string', 'number', 'boolean'].entries()) {
      const run = runs[index];
      expect(run?.code, kind).toBe(2);
      expect(run?.stderr, kind).toContain(
        `toolplane: error: INVALID_ARGUMENTS: arguments from --args must be a JSON object, got ${kind}`,
      );
    }
  });

  it('says the arguments are null, not "object", for --args null', async () => {
    const { code, stderr } = await runCli(['tools', 'call', 'read', '--args', 'null'], { cwd: dir.path });
    expect(code).toBe(2);
    expect(stderr).toContain(
      'toolplane: error: INVALID_ARGUMENTS: arguments from --args must be a JSON object, got null',
    );
  });
});

describe('stdout that cannot be written', () => {
  // `toolplane tools list --json > tools.json` on a full disk: the output is lost, so the command
  // says so and fails (only EPIPE, a reader that left, is not an error).
  it('is EXECUTION_FAILED with exit code 1 when the device is full, not a silent exit 0', async () => {
    if (!existsSync('/dev/full')) {
      if (process.env.CI === 'true') throw new Error('/dev/full is missing');
      console.warn('skipped: /dev/full is not available');
      return;
    }
    const full = openSync('/dev/full', 'w');
    try {
      const child = spawn(process.execPath, [BIN, 'tools', 'list', '--json'], {
        cwd: dir.path,
        env: baseEnv(),
        stdio: ['ignore', full, 'pipe'],
      });
      const { code, signal, stderr } = await finished(child);
      expect(signal).toBeNull();
      expect(code).toBe(1);
      expect(stderr).toContain(
        'toolplane: error: EXECUTION_FAILED: the output could not be written to stdout: ENOSPC',
      );
      expect(stderr).toContain('hint:');
      expect(stderr).not.toMatch(STACK_LINE);
    } finally {
      closeSync(full);
    }
  });

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

describe('a config of the wrong shape', () => {
  // The MCP loader's refusal is one problem among the others of the file, at its position, and
  // names only keys the file has (not "servers" for our own file).
  it('config validate lists an mcpServers that is not an object with its position, beside the rest', async () => {
    const own = await tempDir();
    try {
      await writeFile(join(own.path, 'toolplane.config.yaml'), 'mcpServers: [1]\npolicy:\n  mode: yolo\n');
      await writeFile(join(own.path, 'vscode.json'), '{\n  "servers": 5\n}\n');
      const [yaml, client] = await Promise.all([
        runCli(['config', 'validate'], { cwd: own.path }),
        runCli(['--config', 'vscode.json', 'config', 'validate'], { cwd: own.path }),
      ]);
      expect(yaml.code).toBe(2);
      expect(yaml.stdout).toMatch(
        /toolplane\.config\.yaml:1:\d+ {2}mcpServers {2}Invalid input: expected record, received array/,
      );
      expect(yaml.stdout).toMatch(/toolplane\.config\.yaml:3:\d+ {2}policy\.mode {2}/);
      expect(yaml.stdout).toContain('2 problem(s)');
      expect(yaml.stdout).not.toContain('"servers"');
      expect(client.code).toBe(2);
      expect(client.stdout).toMatch(
        /vscode\.json:2:\d+ {2}servers {2}.*"servers" must be an object of servers by name/,
      );
      expect(client.stdout).toContain('1 problem(s)');
    } finally {
      await own.cleanup();
    }
  });
});
