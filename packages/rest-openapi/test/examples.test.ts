import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');

async function example(file: string): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', '--conditions', '@toolplane/source', join(root, 'examples', file)],
    {
      cwd: root,
      timeout: 60_000,
    },
  );
  return stdout;
}

describe('README examples run', () => {
  it('hand-written tool', async () => {
    const output = await example('hand-written.ts');
    expect(output).toContain('current: Current weather of a city. [rest, rest:weather]');
    expect(output).toContain('"celsius":21.5');
    expect(output).toContain('"city":"São Paulo"');
    expect(output).toContain('"city":"../admin"');
  });

  it('imported Petstore document', async () => {
    const output = await example('import-petstore.ts');
    expect(output).toMatch(/Swagger Petstore .* \(OpenAPI 3\.0\): \d+ tools/);
    expect(output).toContain('petstore.tools.yaml');
    expect(output).toContain('"url":"/v3/pet/findByStatus?status=available&status=sold"');
  });
});
