import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeJsonFile } from './helpers.js';

// A command run with --json that fails before it has a result still prints JSON on stdout, so a
// script that pipes it (`toolplane doctor --json | jq`) reads the error.
let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  // one operation the importer skips (its parameter schema is no JSON Schema), one it keeps
  await writeJsonFile(dir.path, 'api.json', {
    openapi: '3.0.3',
    info: { title: 'Broken', version: '1' },
    servers: [{ url: 'http://127.0.0.1:9/v1' }],
    paths: {
      '/fine': {
        get: { operationId: 'fine', parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }] },
      },
      '/bad': {
        get: { operationId: 'bad', parameters: [{ name: 'p', in: 'query', schema: { type: 'strin' } }] },
      },
    },
  });
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    openapi: [{ namespace: 'api', source: 'api.json' }],
  });
});
afterAll(() => dir.cleanup());

describe('--json when the command fails before it has a result', () => {
  it('prints the error as JSON on stdout, with the same code, line on stderr and exit code', async () => {
    const cases: { args: string[]; code: string; exit: number }[] = [
      { args: ['-c', 'missing.json', 'tools', 'list', '--json'], code: 'CONFIG_INVALID', exit: 2 },
      { args: ['-c', 'missing.json', 'doctor', '--json'], code: 'CONFIG_INVALID', exit: 2 },
      { args: ['-c', 'missing.json', 'config', 'validate', '--json'], code: 'CONFIG_INVALID', exit: 2 },
      { args: ['-c', 'missing.json', 'agent', 'run', 'a task', '--json'], code: 'CONFIG_INVALID', exit: 2 },
      { args: ['policy', 'explain', 'nosuch', '--json'], code: 'TOOL_NOT_FOUND', exit: 2 },
      { args: ['openapi', 'import', 'nowhere.json', '--json'], code: 'CONFIG_INVALID', exit: 2 },
      {
        args: ['tools', 'call', 'api__fine', '--json', '--args', '{bad'],
        code: 'INVALID_ARGUMENTS',
        exit: 2,
      },
      { args: ['tools', 'list', '--json', '--no-such-option'], code: 'INVALID_ARGUMENTS', exit: 2 },
    ];
    const outcomes = await Promise.all(cases.map(({ args }) => runCli(args, { cwd: dir.path })));
    for (const [index, outcome] of outcomes.entries()) {
      const { args, code, exit } = cases[index] as (typeof cases)[number];
      expect(outcome.code, args.join(' ')).toBe(exit);
      const printed = JSON.parse(outcome.stdout) as { ok: boolean; error: { code: string; message: string } };
      expect(printed.ok, args.join(' ')).toBe(false);
      expect(printed.error.code, args.join(' ')).toBe(code);
      expect(printed.error.message.length).toBeGreaterThan(0);
      expect(outcome.stderr).toContain(`toolplane: error: ${code}: `);
    }
  });

  it('leaves stdout empty without --json, and a value named --json is not the switch', async () => {
    const [plain, value] = await Promise.all([
      runCli(['-c', 'missing.json', 'doctor'], { cwd: dir.path }),
      runCli(['-c', 'missing.json', 'tools', 'list', '--agent', 'x', '--', '--json'], { cwd: dir.path }),
    ]);
    expect(plain.code).toBe(2);
    expect(plain.stdout).toBe('');
    expect(value.code).toBe(2);
    expect(value.stdout).toBe('');
  });
});
