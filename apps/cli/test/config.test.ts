import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureServer, runCli, tempDir, writeJsonFile } from './helpers.js';

let dir: { path: string; cleanup(): Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(() => dir.cleanup());

describe('config validate', () => {
  it('accepts a valid JSON config and says what it holds', async () => {
    await writeJsonFile(dir.path, 'toolplane.config.json', {
      mcpServers: { fixture: fixtureServer() },
      builtin: { workspace: '.', tools: ['read', 'list'] },
      policy: { deny: ['fixture__write_note'] },
    });
    const { code, stdout } = await runCli(['config', 'validate'], { cwd: dir.path });
    expect(code).toBe(0);
    expect(stdout).toContain('valid:');
    expect(stdout).toContain('1 MCP server(s), 0 REST provider(s), 0 OpenAPI import(s), built-in tools');
  });

  it('reports YAML problems with file, line and field path', async () => {
    await writeFile(
      join(dir.path, 'toolplane.config.yaml'),
      [
        'mcpServers:',
        '  broken: { type: stdio }',
        'builtin:',
        '  workspace: .',
        '  tools: [read, teleport]',
        'policy:',
        '  mode: yolo',
        'limits:',
        '  timeoutMs: -5',
        'scrubbr:',
        '  enabled: false',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await runCli(['config', 'validate'], { cwd: dir.path });
    expect(code).toBe(2);
    expect(stdout).toMatch(/toolplane\.config\.yaml:5:\d+ {2}builtin\.tools\[1\] {2}/);
    expect(stdout).toMatch(/toolplane\.config\.yaml:7:\d+ {2}policy\.mode {2}/);
    expect(stdout).toMatch(/toolplane\.config\.yaml:9:\d+ {2}limits\.timeoutMs {2}/);
    expect(stdout).toMatch(/toolplane\.config\.yaml:10:1 {2}scrubbr {2}unknown field "scrubbr"/);
    // MCP server entries are checked even when the rest of the file fails the schema
    expect(stdout).toMatch(
      /toolplane\.config\.yaml:2:\d+ {2}mcpServers\.broken\.command {2}.*command is missing/,
    );
    expect(stdout).toContain('5 problem(s)');
  });

  it('reports JSON problems with line numbers, also in --json', async () => {
    const text = `{
  "rest": [
    { "namespace": "weather", "tools": { "now": { "method": "GET", "url": "http://127.0.0.1:1/now" } } }
  ],
  "limits": { "maxOutputBytes": "big" }
}
`;
    await writeFile(join(dir.path, 'toolplane.config.json'), text);
    const { code, stdout } = await runCli(['config', 'validate', '--json'], { cwd: dir.path });
    expect(code).toBe(2);
    const report = JSON.parse(stdout) as {
      valid: boolean;
      issues: { line: number; path: string; message: string }[];
    };
    expect(report.valid).toBe(false);
    const byPath = new Map(report.issues.map((issue) => [issue.path, issue]));
    expect(byPath.get('rest[0].tools.now.description')?.line).toBe(3);
    expect(byPath.get('rest[0].tools.now.parametersSchema')?.line).toBe(3);
    expect(byPath.get('limits.maxOutputBytes')?.line).toBe(5);
  });

  it('reports a JSON syntax error with its line', async () => {
    await writeFile(
      join(dir.path, 'toolplane.config.json'),
      '{\n  "builtin": { "workspace": "." },\n  "policy": {\n}\n',
    );
    const { code, stdout } = await runCli(['config', 'validate'], { cwd: dir.path });
    expect(code).toBe(2);
    expect(stdout).toMatch(/toolplane\.config\.json:\d+:\d+ {2}\(file\) {2}JSON syntax:/);
  });

  it('checks MCP server entries and paths beyond the schema', async () => {
    await writeJsonFile(dir.path, 'toolplane.config.json', {
      mcpServers: {
        good: fixtureServer(),
        broken: { type: 'stdio' },
        secret: { command: 'node', env: { TOKEN: ['${', 'TOOLPLANE_TEST_UNSET_VARIABLE}'].join('') } },
      },
      openapi: [{ namespace: 'pets', source: './missing.json' }],
    });
    const { code, stdout } = await runCli(['config', 'validate'], { cwd: dir.path });
    expect(code).toBe(2);
    expect(stdout).toMatch(/toolplane\.config\.json:\d+:\d+ {2}mcpServers\.broken/);
    expect(stdout).toMatch(/mcpServers\.secret\.env\.TOKEN {2}.*TOOLPLANE_TEST_UNSET_VARIABLE/);
    expect(stdout).toMatch(/openapi\[0\]\.source {2}\.\/missing\.json does not exist/);
  });

  it('fails a command on invalid config with exit code 2, one line and a hint', async () => {
    await writeJsonFile(dir.path, 'toolplane.config.json', { policy: { mode: 'yolo' } });
    const { code, stderr } = await runCli(['tools', 'list'], { cwd: dir.path });
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /toolplane: error: CONFIG_INVALID: invalid config: toolplane\.config\.json:\d+:\d+ {2}policy\.mode/,
    );
    expect(stderr).toContain('hint: run `toolplane config validate`');
  });

  it('says so when --config names a missing file', async () => {
    const { code, stderr } = await runCli(['--config', 'nope.json', 'tools', 'list'], { cwd: dir.path });
    expect(code).toBe(2);
    expect(stderr).toContain('config file nope.json does not exist');
  });

  it('reads a Claude Desktop style file (mcpServers plus other keys) as it is', async () => {
    await writeJsonFile(dir.path, 'claude_desktop_config.json', {
      mcpServers: { fixture: fixtureServer() },
      globalShortcut: 'Ctrl+Space',
    });
    const validate = await runCli(['--config', 'claude_desktop_config.json', 'config', 'validate'], {
      cwd: dir.path,
    });
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain('an MCP client file, read as mcpServers');
    const list = await runCli(['--config', 'claude_desktop_config.json', 'tools', 'list', '--json'], {
      cwd: dir.path,
    });
    expect(list.code).toBe(0);
    const names = (JSON.parse(list.stdout) as { name: string }[]).map((tool) => tool.name);
    expect(names).toContain('fixture__echo');
    expect(names).not.toContain('read');
  });

  it("reads VS Code's servers file with comments", async () => {
    const text = `// .vscode/mcp.json
{
  "servers": {
    "fixture": { "type": "stdio", "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(
      fixtureServer().args as string[],
    ).slice(1, -1)}] },
  },
}
`;
    await writeFile(join(dir.path, 'mcp.json'), text);
    const list = await runCli(['--config', 'mcp.json', 'tools', 'list', '--json'], { cwd: dir.path });
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as { name: string }[]).map((tool) => tool.name)).toContain(
      'fixture__add',
    );
  });

  it('with no file says the defaults are used', async () => {
    const { code, stdout } = await runCli(['config', 'validate'], { cwd: dir.path });
    expect(code).toBe(0);
    expect(stdout).toContain('no config file found');
  });
});
