import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { expect, it } from 'vitest';
import { createBuiltinProvider } from '../src/index.js';
import { makeTempDir } from './helpers/index.js';

// The example of the README, run in a temp workspace instead of process.cwd().
it('runs the README example', async () => {
  const { dir, cleanup } = await makeTempDir('tp-readme-');
  try {
    await writeFile(join(dir, 'package.json'), '{ "name": "demo" }\n// TODO: nothing\n');
    const provider = createBuiltinProvider({ workspace: dir });
    const ctx = createToolContext({ session: { id: 'demo' } });

    const listing = await provider.execute('list', { path: '.' }, ctx);
    const hits = await provider.execute('grep', { pattern: 'TODO', output_mode: 'content', context: 1 }, ctx);
    const read = await provider.execute('read', { path: 'package.json', limit: 20 }, ctx);
    const write = await provider.execute('write', { path: 'notes/hello.txt', content: 'hello\n' }, ctx);
    const run = await provider.execute('bash', { command: 'ls notes && cat notes/hello.txt' }, ctx);
    expect([listing, hits, read, write, run].map((result) => result.ok)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(run.ok && run.content[0]).toEqual({ type: 'text', text: 'hello.txt\nhello\n[exit code 0]' });
    await provider.close?.();
  } finally {
    await cleanup();
  }
});
