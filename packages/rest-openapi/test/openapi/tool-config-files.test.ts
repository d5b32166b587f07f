import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError, createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  type RestToolConfig,
  createRestProvider,
  importOpenApi,
  readToolConfig,
  writeToolConfig,
} from '../../src/index.js';
import { getTool } from '../helpers/bad-input.js';
import { example } from '../helpers/examples.js';
import { useCleanups } from '../helpers/fixtures.js';

const { server, defer } = useCleanups();

async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'rest-openapi-'));
  defer(() => rm(folder, { recursive: true, force: true }));
  return folder;
}

describe('tool config files', () => {
  for (const file of ['petstore.tools.json', 'petstore.tools.yaml']) {
    it(`writes an import to ${file}, reads it back, and the provider built from it works`, async () => {
      const api = await server();
      const folder = await tempFolder();
      const path = join(folder, file);
      const { tools } = await importOpenApi(example('3.1', 'petstore.json'), {
        namespace: 'petstore',
        baseUrl: `${api.origin}/v2`,
      });
      await writeToolConfig(path, tools);
      const text = await readFile(path, 'utf8');
      expect(text).toContain('findPetsByStatus');
      expect(text).toContain('${PETSTORE_API_KEY}');
      if (file.endsWith('.yaml')) expect(text).not.toMatch(/^\s*[&*]\w/m);
      const reread = await readToolConfig(path);
      expect(reread).toEqual(JSON.parse(JSON.stringify(tools)));
      const rest = createRestProvider({
        namespace: 'petstore',
        tools: reread,
        env: { PETSTORE_API_KEY: 'k' },
      });
      defer(() => rest.close());
      const result = await rest.execute('getPetById', { petId: 5 }, createToolContext());
      expect(result.ok).toBe(true);
      expect(api.requests.at(-1)?.url).toBe('/v2/pet/5');
    });
  }

  it('reports a malformed tool config file with the tool and field', async () => {
    const folder = await tempFolder();
    const path = join(folder, 'bad.yaml');
    await writeFile(
      path,
      stringify({
        tools: { broken: { description: 'x', method: 'GET', url: 'not a url', parametersSchema: {} } },
      }),
    );
    await expect(readToolConfig(path)).rejects.toThrow(/REST tool "broken": url must start/);
    await writeFile(path, 'just: text\n');
    await expect(readToolConfig(path)).rejects.toThrow(/"tools"/);
  });

  it('never overwrites a reviewed file with configs it could not read back, and reports write errors', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'rest-openapi-write-'));
    defer(() => rm(folder, { recursive: true, force: true }));
    const file = join(folder, 'tools.json');
    const reviewed = { a: getTool('https://api.example.test/a') };
    await writeToolConfig(file, reviewed);
    const before = await readFile(file, 'utf8');
    for (const bad of [
      { a: getTool('https://api.example.test/a', { maxResponseBytes: -1 }) },
      null as unknown as Record<string, RestToolConfig>,
    ]) {
      // writing them would leave a file readToolConfig refuses in place of the reviewed one
      const error = await writeToolConfig(file, bad).catch((caught: unknown) => caught);
      expect(ToolError.isInstance(error) && error.code).toBe('CONFIG_INVALID');
    }
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(await readToolConfig(file)).toEqual(reviewed);
    const missing = await writeToolConfig(join(folder, 'no-such-folder', 'tools.yaml'), reviewed).catch(
      (caught: unknown) => caught,
    );
    // a ToolError naming the file, not a bare ENOENT
    expect(ToolError.isInstance(missing) && missing.code).toBe('INVALID_ARGUMENTS');
    expect((missing as Error).message).toContain('tools.yaml: its directory does not exist');
    const ontoFolder = await writeToolConfig(folder, reviewed).catch((caught: unknown) => caught);
    expect(ToolError.isInstance(ontoFolder) && ontoFolder.code).toBe('INVALID_ARGUMENTS');
    expect((ontoFolder as Error).message).toContain('it is a directory');
    expect(await readdir(folder)).toEqual(['tools.json']);
  });
});
