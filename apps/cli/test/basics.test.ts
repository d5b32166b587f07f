import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, tempDir } from './helpers.js';

let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  await writeFile(join(dir.path, 'notes.txt'), 'first line\nsecond line\n');
  await writeFile(join(dir.path, 'args.json'), JSON.stringify({ path: 'notes.txt' }));
});
afterAll(() => dir.cleanup());

describe('toolplane basics', () => {
  it('prints help with examples, exit codes and every command', async () => {
    const { code, stdout } = await runCli(['--help'], { cwd: dir.path });
    expect(code).toBe(0);
    for (const command of ['tools', 'serve', 'openapi', 'doctor', 'policy', 'config', 'agent'])
      expect(stdout).toContain(command);
    expect(stdout).toContain('Examples:');
    expect(stdout).toContain('Exit codes: 0 ok, 1 tool error, 2 usage or config error');
  });

  it('runs from the bundle: a command loads a few files of dist/, no package or dependency', async () => {
    // a resolve hook that names every module the command loads, on stderr
    await writeFile(
      join(dir.path, 'hooks.mjs'),
      "export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write('loaded ' + r.url + '\\n'); return r; }\n",
    );
    await writeFile(
      join(dir.path, 'trace.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir.path, 'hooks.mjs')).href)});\n`,
    );
    const env = { NODE_OPTIONS: `--import ${pathToFileURL(join(dir.path, 'trace.mjs')).href}` };
    const dist = pathToFileURL(join(BIN, '..')).href;
    const commands = [
      ['--help'],
      ['--version'],
      ['tools', 'list', '--json'],
      ['tools', 'call', 'read', '--args', '@args.json'],
    ];
    // most loaded by one command: the bundle's entry and the chunks it shares (the gateway, the
    // MCP SDK, undici and the sandboxes are chunks of their own, loaded by commands that use them)
    const most = { '--help': 8, '--version': 8, tools: 40 };
    for (const command of commands) {
      const { code, stderr } = await runCli(command, { cwd: dir.path, env });
      expect(code, command.join(' ')).toBe(0);
      const files = new Set(
        stderr
          .split('\n')
          .filter((line) => line.startsWith('loaded file:'))
          .map((line) => line.slice('loaded '.length)),
      );
      expect(
        [...files].filter((url) => !url.startsWith(dist)),
        command.join(' '),
      ).toEqual([]);
      expect(files.has(`${dist}/bin.js`)).toBe(true);
      expect(files.size, command.join(' ')).toBeLessThanOrEqual(most[command[0] as keyof typeof most]);
    }
  });

  it('has --help with examples on every command', async () => {
    const commands = [
      ['tools', 'list'],
      ['tools', 'call'],
      ['serve', 'mcp'],
      ['openapi', 'import'],
      ['doctor'],
      ['policy', 'explain'],
      ['config', 'validate'],
      ['agent', 'run'],
    ];
    // independent runs, started together
    const runs = await Promise.all(
      commands.map((command) => runCli([...command, '--help'], { cwd: dir.path })),
    );
    for (const [index, { code, stdout }] of runs.entries()) {
      const command = commands[index] ?? [];
      expect(code, command.join(' ')).toBe(0);
      expect(stdout, command.join(' ')).toContain('Examples:');
      expect(stdout).toContain(`$ toolplane`);
    }
  });

  it('prints the version from package.json', async () => {
    const { code, stdout } = await runCli(['--version'], { cwd: dir.path });
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('0.1.0');
  });

  it('exits 2 on an unknown command or option, with a hint', async () => {
    const [unknown, option] = await Promise.all([
      runCli(['frobnicate'], { cwd: dir.path }),
      runCli(['tools', 'list', '--bogus'], { cwd: dir.path }),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    expect(unknown.stderr).toContain('--help');
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("unknown option '--bogus'");
  });

  it('with no config lists the read-only built-in tools of the current directory', async () => {
    const { code, stdout } = await runCli(['tools', 'list', '--json'], { cwd: dir.path });
    expect(code).toBe(0);
    const tools = JSON.parse(stdout) as { name: string; namespace: string; kind: string; risk: string }[];
    const builtin = tools.filter((tool) => tool.kind === 'builtin').map((tool) => tool.name);
    expect(builtin.sort()).toEqual(['glob', 'grep', 'list', 'read']);
    for (const tool of tools) expect(tool.risk).toMatch(/none|low/);
  });

  it('prints a table for people, without colour when not a TTY', async () => {
    const { code, stdout } = await runCli(['tools', 'list'], { cwd: dir.path, env: { FORCE_COLOR: '' } });
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/^NAME\s+NAMESPACE\s+KIND\s+RISK\s+DESCRIPTION$/);
    expect(stdout).toMatch(/^read\s+builtin\s+builtin\s+low\s+Read a text file/m);
    expect(stdout).not.toContain('\u001b[');
  });

  it('uses colour only when forced or on a TTY, and never under NO_COLOR', async () => {
    const [forced, both] = await Promise.all([
      runCli(['tools', 'list'], { cwd: dir.path, env: { NO_COLOR: '', FORCE_COLOR: '1' } }),
      runCli(['tools', 'list'], { cwd: dir.path, env: { NO_COLOR: '1', FORCE_COLOR: '1' } }),
    ]);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('\u001b[1mread');
    expect(both.stdout).not.toContain('\u001b[');
  });

  it('calls a tool with --args JSON, @file and stdin', async () => {
    const [inline, fromFile, piped] = await Promise.all([
      runCli(['tools', 'call', 'read', '--args', '{"path":"notes.txt"}'], { cwd: dir.path }),
      runCli(['tools', 'call', 'read', '--args', '@args.json', '--json'], { cwd: dir.path }),
      runCli(['tools', 'call', 'read'], { cwd: dir.path, input: '{"path":"notes.txt"}' }),
    ]);
    expect(inline.code).toBe(0);
    expect(inline.stdout).toContain('second line');
    expect(inline.stderr).toMatch(/ok · read · \d+ ms/);
    expect(fromFile.code).toBe(0);
    const result = JSON.parse(fromFile.stdout) as {
      ok: boolean;
      content: { text: string }[];
      meta: { latencyMs: number };
    };
    expect(result.ok).toBe(true);
    expect(result.content[0]?.text).toContain('first line');
    expect(typeof result.meta.latencyMs).toBe('number');
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain('first line');
  });

  it('prints the operation tree with --trace', async () => {
    const { code, stderr } = await runCli(['tools', 'call', 'list', '--args', '{"path":"."}', '--trace'], {
      cwd: dir.path,
    });
    expect(code).toBe(0);
    expect(stderr).toContain('operation tree:');
    expect(stderr).toMatch(/list \(\d+ ms\) ok/);
  });

  it('rejects bad arguments with exit code 2 and a hint', async () => {
    const [notJson, array, missingFile, timeout] = await Promise.all([
      runCli(['tools', 'call', 'read', '--args', '{path:'], { cwd: dir.path }),
      runCli(['tools', 'call', 'read', '--args', '[1,2]'], { cwd: dir.path }),
      runCli(['tools', 'call', 'read', '--args', '@nope.json'], { cwd: dir.path }),
      runCli(['tools', 'call', 'read', '--timeout', 'soon'], { cwd: dir.path }),
    ]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('not valid JSON');
    expect(notJson.stderr).toContain('hint:');
    expect(array.code).toBe(2);
    expect(array.stderr).toContain('must be a JSON object, got an array');
    expect(missingFile.code).toBe(2);
    expect(missingFile.stderr).toContain('cannot read arguments file nope.json: ENOENT');
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain('--timeout must be a positive whole number');
  });

  it('exits 2 for an unknown tool and 1 for a tool error', async () => {
    const [unknown, invalid, missing] = await Promise.all([
      runCli(['tools', 'call', 'raed', '--args', '{}'], { cwd: dir.path }),
      runCli(['tools', 'call', 'read', '--args', '{"path": 42}'], { cwd: dir.path }),
      runCli(['tools', 'call', 'read', '--args', '{"path":"missing.txt"}'], { cwd: dir.path }),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('error TOOL_NOT_FOUND');
    expect(unknown.stderr).toContain('read');
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('error INVALID_ARGUMENTS');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/error [A-Z_]+:/);
  });

  it('refuses paths outside the workspace', async () => {
    const { code, stderr } = await runCli(['tools', 'call', 'read', '--args', '{"path":"/etc/passwd"}'], {
      cwd: dir.path,
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/error [A-Z_]+:/);
  });
});
