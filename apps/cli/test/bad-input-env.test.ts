import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

// `${VAR}` in the paths the CLI resolves itself is expanded as the MCP loader expands it in
// server entries: `builtin.workspace: ${PROJECT}` is the folder $PROJECT names, not a folder named
// "${PROJECT}", and `openapi[].source: ${SPEC}` is the file $SPEC names.
/** `${expression}`, the placeholder the config is given. */
const placeholder = (expression: string): string => `$\{${expression}}`;

let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  await mkdir(join(dir.path, 'project'));
  await writeFile(join(dir.path, 'project', 'inside.txt'), 'found through the variable\n');
  await writeFile(
    join(dir.path, 'api.json'),
    JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Api', version: '1' },
      servers: [{ url: 'http://127.0.0.1:9/v1' }],
      paths: { '/items': { get: { operationId: 'listItems', responses: { '200': { description: 'ok' } } } } },
    }),
  );
  await writeFile(
    join(dir.path, 'vars.yaml'),
    [
      `builtin: { workspace: "${placeholder('PROJECT_DIR')}", tools: [read] }`,
      'openapi:',
      `  - { namespace: api, source: "${placeholder('workspaceFolder')}/${placeholder('SPEC_NAME:-api')}.json" }`,
      '',
    ].join('\n'),
  );
});
afterAll(() => dir.cleanup());

describe('a variable in builtin.workspace, rest[].file and openapi[].source', () => {
  it('is expanded from the environment (with defaults and workspaceFolder)', async () => {
    const env = { PROJECT_DIR: join(dir.path, 'project') };
    const [call, list] = await Promise.all([
      runCli(['--config', 'vars.yaml', 'tools', 'call', 'read', '--args', '{"path":"inside.txt"}'], {
        cwd: dir.path,
        env,
      }),
      runCli(['--config', 'vars.yaml', 'tools', 'list', '--json'], { cwd: dir.path, env }),
    ]);
    expect(call.stderr).not.toContain('error');
    expect(call.code).toBe(0);
    expect(call.stdout).toContain('found through the variable');
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as { name: string }[]).map((tool) => tool.name)).toContain(
      'api__listItems',
    );
  });

  it('unset is CONFIG_INVALID at its field, for every command and in config validate', async () => {
    const [call, validate] = await Promise.all([
      runCli(
        ['--config', 'vars.yaml', 'tools', 'call', 'read', '--args', '{"path":"inside.txt"}', '--json'],
        {
          cwd: dir.path,
        },
      ),
      runCli(['--config', 'vars.yaml', 'config', 'validate'], { cwd: dir.path }),
    ]);
    expect(call.code).toBe(2);
    expect((JSON.parse(call.stdout) as { error: { code: string } }).error.code).toBe('CONFIG_INVALID');
    expect(call.stderr).toMatch(
      /vars\.yaml:1:\d+ +builtin\.workspace +uses \$\{PROJECT_DIR\}, which has no value/,
    );
    expect(validate.code).toBe(2);
    expect(validate.stdout).toMatch(
      /vars\.yaml:1:\d+ {2}builtin\.workspace {2}uses \$\{PROJECT_DIR\}, which has no value/,
    );
  });
});
