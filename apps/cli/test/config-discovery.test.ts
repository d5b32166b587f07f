// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${...} placeholders in plain strings are what the config files hold
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_SERVER, fixtureServer, runCli, tempDir, writeJsonFile } from './helpers.js';

let dir: { path: string; cleanup(): Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(() => dir.cleanup());

const toolNames = (stdout: string): string[] =>
  (JSON.parse(stdout) as { name: string }[]).map((tool) => tool.name);

describe('config discovery without --config', () => {
  it("reads the project's .mcp.json and says so, naming the client files it did not read", async () => {
    await writeJsonFile(dir.path, '.mcp.json', { mcpServers: { fixture: fixtureServer() } });
    await mkdir(join(dir.path, '.cursor'));
    await writeJsonFile(dir.path, '.cursor/mcp.json', { mcpServers: { other: fixtureServer() } });
    const list = await runCli(['tools', 'list', '--json'], { cwd: dir.path });
    expect(list.code).toBe(0);
    expect(toolNames(list.stdout)).toContain('fixture__echo');
    expect(toolNames(list.stdout)).not.toContain('other__echo');
    expect(list.stderr).toContain(
      'toolplane: no toolplane.config.* here: loaded .mcp.json; also seen, not read: .cursor/mcp.json (name another with --config)',
    );
  });

  it('prefers toolplane.config.json to client files, without a notice', async () => {
    await writeJsonFile(dir.path, 'toolplane.config.json', { mcpServers: { own: fixtureServer() } });
    await writeJsonFile(dir.path, '.mcp.json', { mcpServers: { fixture: fixtureServer() } });
    const list = await runCli(['tools', 'list', '--json'], { cwd: dir.path });
    expect(list.code).toBe(0);
    expect(toolNames(list.stdout)).toContain('own__echo');
    expect(toolNames(list.stdout)).not.toContain('fixture__echo');
    expect(list.stderr).not.toContain('no toolplane.config.* here');
  });

  it('resolves ${workspaceFolder} of .vscode/mcp.json to the folder that holds .vscode', async () => {
    // a server file in the workspace itself (it runs the fixture, whose imports resolve where it is)
    await writeFile(
      join(dir.path, 'server.mjs'),
      `import ${JSON.stringify(pathToFileURL(FIXTURE_SERVER).href)};\n`,
    );
    await mkdir(join(dir.path, '.vscode'));
    await writeFile(
      join(dir.path, '.vscode', 'mcp.json'),
      `{ "servers": { "fixture": { "type": "stdio", "command": ${JSON.stringify(process.execPath)}, "args": ["\${workspaceFolder}/server.mjs"] } }, "inputs": [] }`,
    );
    const list = await runCli(['tools', 'list', '--json'], { cwd: dir.path });
    expect(list.stderr).toContain('loaded .vscode/mcp.json');
    expect(list.code).toBe(0);
    expect(toolNames(list.stdout)).toContain('fixture__echo');
  });

  it('takes an input without a default from TOOLPLANE_INPUT_<ID>, and names that variable when it is unset', async () => {
    await mkdir(join(dir.path, '.vscode'));
    const server = fixtureServer();
    await writeJsonFile(dir.path, '.vscode/mcp.json', {
      inputs: [{ type: 'promptString', id: 'fixture-token', password: true }],
      servers: {
        fixture: { type: 'stdio', ...server, env: { FIXTURE_TOKEN: '${input:fixture-token}' } },
      },
    });
    const missing = await runCli(['tools', 'list', '--json'], { cwd: dir.path });
    expect(missing.stderr).toContain(
      'uses ${input:fixture-token}, an input without a default (VS Code would prompt for it): set TOOLPLANE_INPUT_FIXTURE_TOKEN to its value',
    );
    const given = await runCli(['tools', 'list', '--json'], {
      cwd: dir.path,
      env: { TOOLPLANE_INPUT_FIXTURE_TOKEN: 'input-value-3' },
    });
    expect(given.code).toBe(0);
    expect(toolNames(given.stdout)).toContain('fixture__echo');
    expect(given.stderr).not.toContain('TOOLPLANE_INPUT_FIXTURE_TOKEN');
  });
});
