import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeJsonFile } from './helpers.js';

// An operation the OpenAPI importer skips (its parameter schema is no JSON Schema) is named by every
// command that loads the document, and the rest of the document is imported.
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

describe('an OpenAPI document with an operation the importer skips', () => {
  const skipped = /warning: .*api: skipped GET \/bad: .*not a valid JSON Schema/;

  it('is named by tools list, on stderr, with and without --json', async () => {
    const [text, json] = await Promise.all([
      runCli(['tools', 'list'], { cwd: dir.path }),
      runCli(['tools', 'list', '--json'], { cwd: dir.path }),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('api__fine');
    expect(text.stdout).not.toContain('api__bad');
    expect(text.stderr).toMatch(skipped);
    expect(json.code).toBe(0);
    const names = (JSON.parse(json.stdout) as { name: string }[]).map((tool) => tool.name);
    expect(names).toContain('api__fine');
    expect(json.stderr).toMatch(skipped);
  });

  it('is named by doctor, in the table and in --json', async () => {
    const [text, json] = await Promise.all([
      runCli(['doctor'], { cwd: dir.path }),
      runCli(['doctor', '--json'], { cwd: dir.path }),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('1 warning');
    expect(text.stdout + text.stderr).toMatch(skipped);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as { providers: { provider: string; warnings?: string[] }[] };
    const row = report.providers.find((provider) => provider.provider === 'api');
    expect(row?.warnings?.join('\n')).toMatch(/skipped GET \/bad: .*not a valid JSON Schema/);
  });

  it('is named by openapi import, which imports the rest', async () => {
    const outcome = await runCli(['openapi', 'import', 'api.json', '--namespace', 'api', '--json'], {
      cwd: dir.path,
    });
    expect(outcome.code).toBe(0);
    const report = JSON.parse(outcome.stdout) as { tools: string[]; warnings: string[] };
    expect(report.tools).toEqual(['fine']);
    expect(report.warnings.join('\n')).toMatch(/skipped GET \/bad/);
  });
});
