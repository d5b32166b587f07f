import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importOpenApi } from '../../src/index.js';
import { minimal, rejection } from '../helpers/bad-input.js';

const document = minimal({ '/a': { get: { operationId: 'a' } } });

describe('a document file that is a FIFO', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tp-openapi-fifo-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  const fifo = (name: string): string => {
    const path = join(folder, name);
    execFileSync('mkfifo', [path]);
    return path;
  };

  it('that nobody writes to is TIMEOUT, and leaves no thread blocked on it', async () => {
    const path = fifo('openapi.json');
    // More reads than libuv's four threads: one left blocked on each would hang the last ones.
    for (let attempt = 0; attempt < 6; attempt++) {
      const error = await rejection(importOpenApi(path, { fetchTimeoutMs: 150 }));
      expect(error.code).toBe('TIMEOUT');
      expect(error.message).toBe(
        `the OpenAPI document ${path} was not read within 150 ms (a pipe or FIFO nobody writes to?); pass a regular file or raise fetchTimeoutMs`,
      );
    }
    // The file-system threads are all free: a regular document still loads.
    const regular = join(folder, 'regular.json');
    await writeFile(regular, JSON.stringify(document));
    expect(Object.keys((await importOpenApi(regular)).tools)).toEqual(['a']);
  });

  it('referenced by the document and never written is TIMEOUT too', async () => {
    fifo('schema.json');
    const main = join(folder, 'openapi.json');
    await writeFile(
      main,
      JSON.stringify(
        minimal({
          '/a': {
            get: {
              operationId: 'a',
              parameters: [{ name: 'q', in: 'query', schema: { $ref: './schema.json' } }],
            },
          },
        }),
      ),
    );
    const error = await rejection(importOpenApi(main, { fetchTimeoutMs: 150 }));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain('schema.json');
  });

  it('that a process writes to is read, as from `<(command)`', async () => {
    const path = fifo('openapi.json');
    const writer = spawn('sh', ['-c', 'cat > "$1"', 'sh', path], { stdio: ['pipe', 'ignore', 'ignore'] });
    const closed = new Promise((done) => writer.once('close', done));
    writer.stdin.end(JSON.stringify(document));
    const { tools } = await importOpenApi(path, { fetchTimeoutMs: 10_000 });
    expect(Object.keys(tools)).toEqual(['a']);
    await closed;
  });
});
