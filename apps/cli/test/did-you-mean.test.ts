import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeJsonFile } from './helpers.js';

// Everywhere a name can be misspelt the CLI names the one that was probably meant: a config key,
// a built-in tool in `builtin.tools`, a tool given to `policy explain`.

interface Validation {
  valid: boolean;
  issues: { path: string; message: string }[];
}

let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  await writeJsonFile(dir.path, 'key.json', { builtin: { workspace: '.' }, polciy: { deny: ['write'] } });
  await writeJsonFile(dir.path, 'builtin.json', { builtin: { workspace: '.', tools: ['read', 'grpe'] } });
  await writeJsonFile(dir.path, 'toolplane.config.json', { builtin: { workspace: '.', tools: ['read'] } });
});
afterAll(() => dir.cleanup());

describe('did you mean', () => {
  it('names the config key meant by a misspelt top-level key, in validate and in every command', async () => {
    const [validate, list] = await Promise.all([
      runCli(['--config', 'key.json', 'config', 'validate', '--json'], { cwd: dir.path }),
      runCli(['--config', 'key.json', 'tools', 'list'], { cwd: dir.path }),
    ]);
    expect(validate.code).toBe(2);
    const parsed = JSON.parse(validate.stdout) as Validation;
    expect(parsed.issues.find((issue) => issue.path === 'polciy')?.message).toContain('did you mean policy?');
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('CONFIG_INVALID');
    expect(list.stderr).toContain('did you mean policy?');
  });

  it('names the built-in tool meant by a misspelt entry of builtin.tools', async () => {
    const { code, stdout } = await runCli(['--config', 'builtin.json', 'config', 'validate', '--json'], {
      cwd: dir.path,
    });
    expect(code).toBe(2);
    const parsed = JSON.parse(stdout) as Validation;
    expect(parsed.issues.find((issue) => issue.path === 'builtin.tools[1]')?.message).toContain(
      'did you mean "grep"?',
    );
  });

  it('names the tool meant by a misspelt name given to policy explain, with TOOL_NOT_FOUND and exit code 2', async () => {
    const [text, json] = await Promise.all([
      runCli(['policy', 'explain', 'raed'], { cwd: dir.path }),
      runCli(['policy', 'explain', 'raed', '--json'], { cwd: dir.path }),
    ]);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('TOOL_NOT_FOUND');
    expect(text.stderr).toContain('no tool named raed');
    expect(text.stderr).toContain('did you mean read?');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      error: { code: 'TOOL_NOT_FOUND', hint: 'did you mean read?' },
    });
  });
});
