import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, finished, runCli, startCli, tempDir } from './helpers.js';

// Arguments (`--args @file`, `--args -`, piped stdin) and the config (`--config`) are read the same
// way: a regular file is size-checked first; a pipe, FIFO or device is read up to the same bound
// and must end within TOOLPLANE_INPUT_TIMEOUT_MS (set low here, default 60 s), else TIMEOUT.

const STACK_LINE = /^\s+at .+\(?.*:\d+:\d+\)?$/m;
/** The input timeout of these runs: short, so a read that would never end fails soon. */
const INPUT_TIMEOUT = { TOOLPLANE_INPUT_TIMEOUT_MS: '1500' };
/** How long a run may take before the test kills it (a hang fails the test, never the suite). */
const RUN_LIMIT_MS = 60_000;

let dir: { path: string; cleanup(): Promise<void> };
const writers: ChildProcess[] = [];
beforeAll(async () => {
  dir = await tempDir();
  await writeFile(join(dir.path, 'notes.txt'), 'first line\nsecond line\n');
});
afterEach(() => {
  for (const writer of writers.splice(0)) writer.kill('SIGKILL');
});
afterAll(() => dir.cleanup());

/** Makes a FIFO in the test directory; undefined (the test skips) when mkfifo is missing outside CI. */
function makeFifo(name: string): string | undefined {
  const fifo = join(dir.path, name);
  try {
    execFileSync('mkfifo', [fifo]);
  } catch (error) {
    if (process.env.CI === 'true') throw error;
    console.warn(`skipped: mkfifo is not available (${(error as Error).message})`);
    return undefined;
  }
  return fifo;
}

/** A real process that opens `fifo` for writing and runs `script` with it as fd 3 (killed after the test). */
function writer(fifo: string, script: string): ChildProcess {
  const child = spawn('sh', ['-c', `exec 3>"$1"; ${script}`, 'writer', fifo], { stdio: 'ignore' });
  writers.push(child);
  return child;
}

describe('--args and --config of a FIFO are read the same way', () => {
  it('--args @fifo that nobody writes to is TIMEOUT after the input timeout', async () => {
    const fifo = makeFifo('args-nobody.fifo');
    if (!fifo) return;
    const { code, signal, stderr } = await runCli(['tools', 'call', 'read', '--args', '@args-nobody.fifo'], {
      cwd: dir.path,
      env: INPUT_TIMEOUT,
      timeoutMs: RUN_LIMIT_MS,
    });
    expect(signal).toBeNull();
    expect(code).toBe(2);
    expect(stderr).toContain(
      'toolplane: error: TIMEOUT: arguments file args-nobody.fifo did not end within 1500 ms',
    );
    expect(stderr).toContain('hint: write the JSON and close the pipe, pass --args JSON instead');
    expect(stderr).toContain('TOOLPLANE_INPUT_TIMEOUT_MS');
    expect(stderr).not.toMatch(STACK_LINE);
  });

  it('--args @fifo whose writer sends part of the JSON and never closes it is TIMEOUT', async () => {
    const fifo = makeFifo('args-open.fifo');
    if (!fifo) return;
    writer(fifo, `printf '{"path":' >&3; exec sleep 300`);
    const { code, signal, stderr } = await runCli(['tools', 'call', 'read', '--args', '@args-open.fifo'], {
      cwd: dir.path,
      env: INPUT_TIMEOUT,
      timeoutMs: RUN_LIMIT_MS,
    });
    expect(signal).toBeNull();
    expect(code).toBe(2);
    expect(stderr).toContain('toolplane: error: TIMEOUT: arguments file args-open.fifo did not end');
  });

  it('--args @fifo whose writer sends the JSON and closes it runs the call', async () => {
    const fifo = makeFifo('args-ok.fifo');
    if (!fifo) return;
    writer(fifo, `printf '{"path":"notes.txt"}' >&3`);
    const { code, stdout, stderr } = await runCli(['tools', 'call', 'read', '--args', '@args-ok.fifo'], {
      cwd: dir.path,
      env: INPUT_TIMEOUT,
      timeoutMs: RUN_LIMIT_MS,
    });
    expect(stderr).not.toContain('error');
    expect(code).toBe(0);
    expect(stdout).toContain('second line');
  });

  it('--args @fifo whose writer never stops is refused at 16 MiB, not read into memory without end', async () => {
    const fifo = makeFifo('args-endless.fifo');
    if (!fifo) return;
    writer(fifo, 'yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa >&3');
    const { code, signal, stderr } = await runCli(['tools', 'call', 'read', '--args', '@args-endless.fifo'], {
      cwd: dir.path,
      env: { TOOLPLANE_INPUT_TIMEOUT_MS: '120000' },
      timeoutMs: RUN_LIMIT_MS,
    });
    expect(signal).toBeNull();
    expect(code).toBe(2);
    expect(stderr).toContain(
      'toolplane: error: INVALID_ARGUMENTS: arguments file args-endless.fifo is larger than 16 MiB',
    );
  });

  it('--config of a FIFO whose writer sends a config is read', async () => {
    const fifo = makeFifo('piped.config.yaml');
    if (!fifo) return;
    writer(fifo, `printf 'builtin:\\n  workspace: .\\n  tools: [read, list]\\n' >&3`);
    const { code, stdout, stderr } = await runCli(
      ['--config', 'piped.config.yaml', 'tools', 'list', '--json'],
      {
        cwd: dir.path,
        env: INPUT_TIMEOUT,
        timeoutMs: RUN_LIMIT_MS,
      },
    );
    expect(stderr).not.toContain('error');
    expect(code).toBe(0);
    const names = (JSON.parse(stdout) as Array<{ name: string }>).map((tool) => tool.name);
    expect(names).toContain('read');
    expect(names).toContain('list');
    expect(names).not.toContain('write');
  });

  it('--config <(command) (a pipe with no file name extension) is read, as YAML when it is not JSON', async () => {
    const script = `exec "$1" "$2" --config <(printf 'builtin:\\n  workspace: .\\n  tools: [read]\\n') tools list --json`;
    const child = spawn('bash', ['-c', script, 'run', process.execPath, BIN], {
      cwd: dir.path,
      env: baseEnv(INPUT_TIMEOUT),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { code, stdout, stderr } = await finished(child, RUN_LIMIT_MS);
    expect(stderr).not.toContain('error');
    expect(code).toBe(0);
    const names = (JSON.parse(stdout) as Array<{ name: string }>).map((tool) => tool.name);
    expect(names).toContain('read');
    expect(names).not.toContain('list');
  });

  it('--args @<(command) (a pipe bash makes) is read', async () => {
    const script = `exec "$1" "$2" tools call read --args @<(printf '{"path":"notes.txt"}')`;
    const child = spawn('bash', ['-c', script, 'run', process.execPath, BIN], {
      cwd: dir.path,
      env: baseEnv(INPUT_TIMEOUT),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { code, stdout, stderr } = await finished(child, RUN_LIMIT_MS);
    expect(stderr).not.toContain('error');
    expect(code).toBe(0);
    expect(stdout).toContain('first line');
  });

  it('--config of a FIFO that nobody writes to is TIMEOUT, like --args', async () => {
    const fifo = makeFifo('nobody.config.json');
    if (!fifo) return;
    for (const command of [
      ['tools', 'list'],
      ['config', 'validate'],
    ]) {
      const { code, signal, stderr } = await runCli(['--config', 'nobody.config.json', ...command], {
        cwd: dir.path,
        env: INPUT_TIMEOUT,
        timeoutMs: RUN_LIMIT_MS,
      });
      expect(signal, command.join(' ')).toBeNull();
      expect(code, command.join(' ')).toBe(2);
      expect(stderr, command.join(' ')).toMatch(
        /toolplane: error: TIMEOUT: config .*nobody\.config\.json did not end within 1500 ms/,
      );
      expect(stderr, command.join(' ')).toContain('hint: write the config and close the pipe');
    }
  });

  it('a TOOLPLANE_INPUT_TIMEOUT_MS that is not a positive whole number is INVALID_ARGUMENTS', async () => {
    const { code, stderr } = await runCli(['tools', 'call', 'read', '--args', '-'], {
      cwd: dir.path,
      input: '{"path":"notes.txt"}',
      env: { TOOLPLANE_INPUT_TIMEOUT_MS: 'soon' },
      timeoutMs: RUN_LIMIT_MS,
    });
    expect(code).toBe(2);
    expect(stderr).toContain(
      'toolplane: error: INVALID_ARGUMENTS: TOOLPLANE_INPUT_TIMEOUT_MS must be a positive whole number of milliseconds, got "soon"',
    );
  });
});

describe('other inputs: stdin that is never closed, devices, directories, sockets, files that grow', () => {
  it('a TOOLPLANE_INPUT_TIMEOUT_MS past what a timer holds is refused (a timer would fire at once)', async () => {
    const { code, stderr } = await runCli(['tools', 'call', 'read', '--args', '-'], {
      cwd: dir.path,
      input: '{"path":"notes.txt"}',
      env: { TOOLPLANE_INPUT_TIMEOUT_MS: '3000000000' },
      timeoutMs: RUN_LIMIT_MS,
    });
    expect(code).toBe(2);
    expect(stderr).toContain(
      'toolplane: error: INVALID_ARGUMENTS: TOOLPLANE_INPUT_TIMEOUT_MS must be at most 2147483647 (about 24 days), got "3000000000"',
    );
    expect(stderr).not.toContain('TimeoutOverflowWarning');
  });

  it('--config /dev/zero is refused at 64 MiB, saying so', async () => {
    const { code, signal, stderr } = await runCli(['--config', '/dev/zero', 'tools', 'list'], {
      cwd: dir.path,
      timeoutMs: RUN_LIMIT_MS,
    });
    expect(signal).toBeNull();
    expect(code).toBe(2);
    expect(stderr).toContain(
      'toolplane: error: CONFIG_INVALID: config /dev/zero is larger than 64 MiB, the most a config file may be',
    );
  });

  it('--args - with stdin left open is TIMEOUT', async () => {
    const child = startCli(['tools', 'call', 'read', '--args', '-'], { cwd: dir.path, env: INPUT_TIMEOUT });
    child.stdin?.write('{"path":"notes.txt"');
    const { code, signal, stderr } = await finished(child, RUN_LIMIT_MS);
    expect(signal).toBeNull();
    expect(code).toBe(2);
    expect(stderr).toContain('toolplane: error: TIMEOUT: arguments on stdin did not end within 1500 ms');
    expect(stderr).toContain('hint: close stdin after writing the JSON, or pass --args JSON');
  });

  it('piped stdin left open with no --args is TIMEOUT saying why stdin was read', async () => {
    const child = startCli(['tools', 'call', 'read'], { cwd: dir.path, env: INPUT_TIMEOUT });
    const { code, signal, stderr } = await finished(child, RUN_LIMIT_MS);
    expect(signal).toBeNull();
    expect(code).toBe(2);
    expect(stderr).toContain('toolplane: error: TIMEOUT: arguments on stdin did not end within 1500 ms');
    expect(stderr).toContain(
      'hint: stdin is not a terminal, so it is read for the arguments: close it (for example </dev/null), or pass --args JSON',
    );
  });

  it('--args @directory says it is a directory', async () => {
    await mkdir(join(dir.path, 'args.d'), { recursive: true });
    const { code, stderr } = await runCli(['tools', 'call', 'read', '--args', '@args.d'], { cwd: dir.path });
    expect(code).toBe(2);
    expect(stderr).toContain('toolplane: error: INVALID_ARGUMENTS: arguments file args.d is a directory');
    expect(stderr).toContain('hint: give --args @ the path of a JSON file');
  });

  it('a Unix socket as --args @ or --config says it is a socket', async () => {
    const server = createServer();
    const path = join(dir.path, 'agent.sock');
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const args = await runCli(['tools', 'call', 'read', '--args', '@agent.sock'], { cwd: dir.path });
      expect(args.code).toBe(2);
      expect(args.stderr).toContain(
        'toolplane: error: INVALID_ARGUMENTS: arguments file agent.sock is a socket',
      );
      const config = await runCli(['--config', 'agent.sock', 'tools', 'list'], { cwd: dir.path });
      expect(config.code).toBe(2);
      expect(config.stderr).toMatch(/toolplane: error: CONFIG_INVALID: config .*agent\.sock is a socket/);
      expect(config.stderr).toContain('hint: give --config the path of a .json, .yaml or .yml file');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('--args @file that grows past 16 MiB while it is read is refused at the limit', async () => {
    const growing = join(dir.path, 'growing.json');
    await writeFile(growing, '{"path":"');
    // the file is small when the CLI checks its size; it passes 16 MiB before the CLI is done
    const appending = (async () => {
      const chunk = 'a'.repeat(1024 * 1024);
      for (let index = 0; index < 40; index++) await appendFile(growing, chunk);
    })();
    const run = runCli(['tools', 'call', 'read', '--args', '@growing.json'], {
      cwd: dir.path,
      timeoutMs: RUN_LIMIT_MS,
    });
    await appending;
    const { code, stderr } = await run;
    expect(code).toBe(2);
    // either it read a snapshot shorter than the limit (unfinished JSON) or it stopped at the limit
    expect(stderr).toMatch(
      /toolplane: error: INVALID_ARGUMENTS: (arguments file growing\.json is larger than 16 MiB|arguments from growing\.json are not valid JSON)/,
    );
    expect(stderr).not.toContain('Invalid string length');
  });
});
