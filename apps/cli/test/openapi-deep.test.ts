import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

// `openapi import` of a schema 5,000 levels deep: the importer (rest-openapi) keeps a schema whole
// up to its nesting limit and skips an operation past it with a warning. When every operation is
// skipped, the CLI prints that warning, rather than only "no operations matched" and a hint at --tag.
let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => dir.cleanup());

/** A JSON schema `levels` objects deep (written as text: JSON.stringify would overflow the stack). */
function nested(levels: number): string {
  let schema = '{"type":"string"}';
  for (let level = 0; level < levels; level++) schema = `{"type":"object","properties":{"a":${schema}}}`;
  return schema;
}

async function documentWith(name: string, levels: number): Promise<string> {
  const text = `{"openapi":"3.0.3","info":{"title":"deep","version":"1"},"servers":[{"url":"http://127.0.0.1:9"}],
    "paths":{"/orders":{"post":{"operationId":"placeOrder","requestBody":{"content":{"application/json":
    {"schema":${nested(levels)}}}},"responses":{"200":{"description":"ok"}}}}}}`;
  await writeFile(join(dir.path, name), text);
  return name;
}

describe('openapi import of a schema nested 5,000 levels deep', () => {
  it('names the operation and the limit, in text and in --json, when it is the only one', async () => {
    const file = await documentWith('deep.json', 5000);
    const [text, json] = await Promise.all([
      runCli(['openapi', 'import', file, '--out', 'deep.tools.json'], { cwd: dir.path }),
      runCli(['openapi', 'import', file, '--json'], { cwd: dir.path }),
    ]);
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/^warning: skipped POST \/orders: a schema nests deeper than \d+ levels/m);
    expect(text.stderr).toContain(
      'toolplane: error: CONFIG_INVALID: no operation of deep.json could be imported: skipped POST /orders:',
    );
    expect(text.stderr).not.toContain('matched');
    expect(json.code).toBe(2);
    const answer = JSON.parse(json.stdout) as { ok: boolean; error: { code: string; message: string } };
    expect(answer.ok).toBe(false);
    expect(answer.error.code).toBe('CONFIG_INVALID');
    expect(answer.error.message).toMatch(/skipped POST \/orders: a schema nests deeper than \d+ levels/);
  });

  it('keeps a schema 100 levels deep whole', async () => {
    const file = await documentWith('hundred.json', 100);
    const { code, stderr } = await runCli(['openapi', 'import', file, '--out', 'hundred.tools.json'], {
      cwd: dir.path,
    });
    expect(code).toBe(0);
    expect(stderr).not.toContain('warning');
    const written = await readFile(join(dir.path, 'hundred.tools.json'), 'utf8');
    // the parameters schema's own properties plus the 100 levels of the body
    expect(written.match(/"properties"/g)?.length).toBeGreaterThanOrEqual(100);
  });
});
