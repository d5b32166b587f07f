import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_SERVER, fixturePids, fixtureServer, runCli, tempDir, writeJsonFile } from './helpers.js';

// The CLI's own file (`toolplane.config.*`) is strict: a misspelled key of an MCP server entry is
// refused with the key meant, as the MCP provider refuses it in its own format. A foreign client
// file lets unknown keys through; read that way, `comand`, `envs` or `toolAllowed` would be
// dropped silently (the server would run without its env, or expose every tool).

let dir: { path: string; cleanup(): Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(() => dir.cleanup());

describe('unknown keys of mcpServers entries in the CLI config', () => {
  it('fails every command with CONFIG_INVALID naming the key and the one meant, and validate lists them all', async () => {
    const pidDir = join(dir.path, 'pids');
    const file = await writeJsonFile(dir.path, 'toolplane.config.json', {
      mcpServers: {
        good: fixtureServer({ FIXTURE_PID_DIR: pidDir }),
        typo: { comand: process.execPath, args: [FIXTURE_SERVER] },
        other: {
          ...fixtureServer({ FIXTURE_PID_DIR: pidDir }),
          envs: { FIXTURE_SECRET: 'x' },
          toolAllowed: ['echo'],
        },
      },
    });
    const before = await readFile(file, 'utf8');

    const [list, call, validate] = await Promise.all([
      runCli(['tools', 'list'], { cwd: dir.path }),
      runCli(['tools', 'call', 'good__echo', '--args', '{"message":"hi"}'], { cwd: dir.path }),
      runCli(['config', 'validate', '--json'], { cwd: dir.path }),
    ]);
    expect(list.code).toBe(2);
    expect(list.stdout).toBe('');
    expect(list.stderr).toMatch(
      /toolplane: error: CONFIG_INVALID: invalid config: toolplane\.config\.json:\d+:\d+ {2}mcpServers\.typo\.comand {2}MCP server "typo": comand is not a field of a server: did you mean command\? \(rename or remove it\) \(and 2 more\)/,
    );
    expect(list.stderr).toContain('hint: run `toolplane config validate`');

    expect(call.code).toBe(2);
    expect(call.stderr).toContain('CONFIG_INVALID');
    expect(call.stderr).toContain('did you mean command?');
    // refused before anything starts: no server ran
    expect(await fixturePids(pidDir)).toEqual([]);

    expect(validate.code).toBe(2);
    const report = JSON.parse(validate.stdout) as {
      valid: boolean;
      issues: { line?: number; path: string; message: string }[];
    };
    expect(report.valid).toBe(false);
    const byPath = new Map(report.issues.map((issue) => [issue.path, issue]));
    expect(byPath.get('mcpServers.typo.comand')?.message).toContain('did you mean command?');
    expect(byPath.get('mcpServers.other.envs')?.message).toContain('did you mean env?');
    expect(byPath.get('mcpServers.other.toolAllowed')?.message).toContain('did you mean toolsAllowed?');
    for (const path of ['mcpServers.typo.comand', 'mcpServers.other.envs', 'mcpServers.other.toolAllowed'])
      expect(byPath.get(path)?.line).toBeGreaterThan(1);
    // the typo is reported as itself, not also as a missing command
    expect(report.issues.some((issue) => issue.message.includes('command is missing'))).toBe(false);
    expect(report.issues).toHaveLength(3);
    // nothing is rewritten
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('reports a misspelled key in YAML at its line, next to schema problems, in a file of ours by any name', async () => {
    await writeFile(
      join(dir.path, 'team.yaml'),
      [
        'mcpServers:',
        '  notes:',
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(FIXTURE_SERVER)}]`,
        '    requestTimeout: 5000',
        'policy:',
        '  mode: yolo',
        '',
      ].join('\n'),
    );
    // `policy` makes it ours whatever its name: a client's file has no such key
    const { code, stdout } = await runCli(['--config', 'team.yaml', 'config', 'validate'], { cwd: dir.path });
    expect(code).toBe(2);
    expect(stdout).toMatch(
      /team\.yaml:5:\d+ {2}mcpServers\.notes\.requestTimeout {2}.*did you mean requestTimeoutMs\?/,
    );
    expect(stdout).toMatch(/team\.yaml:7:\d+ {2}policy\.mode {2}/);
    expect(stdout).toContain('2 problem(s)');
  });

  it('reads a client file (only mcpServers, another name) with keys of its own in an entry', async () => {
    await writeJsonFile(dir.path, 'cline_mcp_settings.json', {
      mcpServers: { fixture: { ...fixtureServer(), alwaysAllow: ['echo'], autoApprove: [] } },
    });
    const list = await runCli(['--config', 'cline_mcp_settings.json', 'tools', 'list', '--json'], {
      cwd: dir.path,
    });
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as { name: string }[]).map((tool) => tool.name)).toContain(
      'fixture__echo',
    );
  });
});
