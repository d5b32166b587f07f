import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolResult } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createBuiltinProvider } from '../src/index.js';
import { useWorkspace, context, eventually, failure, okText } from './helpers/index.js';

// Bad input to the file tools: races on one file, names at the edges, odd encodings, mounts.

const ws = useWorkspace();

describe('parallel mutations of one file', () => {
  it('keeps every one of ten edits sent at once by one session', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i}`);
    await writeFile(join(ws.dir, 'many.txt'), `${lines.join('\n')}\n`);
    okText(await ws.provider.execute('read', { path: 'many.txt' }, context()));
    const results = await Promise.all(
      lines.map((line) =>
        ws.provider.execute(
          'edit',
          { path: 'many.txt', old_string: `${line}\n`, new_string: `EDITED ${line}\n` },
          context(),
        ),
      ),
    );
    for (const result of results) okText(result);
    expect(await readFile(join(ws.dir, 'many.txt'), 'utf8')).toBe(
      `${lines.map((line) => `EDITED ${line}`).join('\n')}\n`,
    );
  });

  it('refuses the second of two sessions that read the same version, instead of overwriting the first', async () => {
    await writeFile(join(ws.dir, 'shared.txt'), 'alpha\nbeta\n');
    okText(await ws.provider.execute('read', { path: 'shared.txt' }, context('one')));
    okText(await ws.provider.execute('read', { path: 'shared.txt' }, context('two')));
    const [first, second] = await Promise.all([
      ws.provider.execute(
        'edit',
        { path: 'shared.txt', old_string: 'alpha', new_string: 'ALPHA' },
        context('one'),
      ),
      ws.provider.execute(
        'edit',
        { path: 'shared.txt', old_string: 'beta', new_string: 'BETA' },
        context('two'),
      ),
    ]);
    // Whichever reaches the file first wins (both resolve the path before they queue); the
    // other is refused, and the file holds the winner's change only.
    const results = [first, second] as ToolResult[];
    const winner = results.findIndex((result) => result.ok);
    expect(winner).not.toBe(-1);
    expect(failure(results[1 - winner] as ToolResult).code).toBe('DENIED');
    expect(await readFile(join(ws.dir, 'shared.txt'), 'utf8')).toBe(
      winner === 0 ? 'ALPHA\nbeta\n' : 'alpha\nBETA\n',
    );
  });
});

describe('paths at the edges of the file system', () => {
  it('writes a file whose name is long but legal, leaving no temp file', async () => {
    const name = `${'n'.repeat(246)}.txt`; // 250 bytes: under NAME_MAX, but not with a temp suffix
    okText(await ws.provider.execute('write', { path: name, content: 'long name\n' }, context()));
    expect(await readFile(join(ws.dir, name), 'utf8')).toBe('long name\n');
    expect(await readdir(ws.dir)).toEqual([name]);
  });

  it('refuses a name over 255 bytes with INVALID_ARGUMENTS', async () => {
    const name = 'm'.repeat(300);
    for (const [tool, args] of [
      ['read', { path: name }],
      ['write', { path: name, content: 'x' }],
      ['list', { path: name }],
    ] as const) {
      const error = failure(await ws.provider.execute(tool, args, context()));
      expect(error.code, tool).toBe('INVALID_ARGUMENTS');
      expect(error.message).toMatch(/too long .*255 bytes/);
    }
  });

  it('refuses a path that goes through a file, and creates nothing', async () => {
    await writeFile(join(ws.dir, 'plain.txt'), 'data\n');
    for (const [tool, args] of [
      ['write', { path: 'plain.txt/child.txt', content: 'x' }],
      ['read', { path: 'plain.txt/child.txt' }],
      ['list', { path: 'plain.txt/sub' }],
    ] as const) {
      const error = failure(await ws.provider.execute(tool, args, context()));
      expect(error.code, tool).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain('plain.txt is a file, not a directory');
      expect(error.message).not.toContain(ws.dir);
    }
    expect(await readFile(join(ws.dir, 'plain.txt'), 'utf8')).toBe('data\n');
  });

  it('refuses a write path with a trailing slash instead of creating a file there', async () => {
    const error = failure(await ws.provider.execute('write', { path: 'notes/', content: 'x' }, context()));
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message).toContain('ends with "/"');
    expect(existsSync(join(ws.dir, 'notes'))).toBe(false);
  });
});

describe('lone UTF-16 surrogates', () => {
  it('are refused in paths, written content, edits and notebook cells, changing nothing', async () => {
    await writeFile(join(ws.dir, 'keep.txt'), 'keep me\n');
    const notebook = `${JSON.stringify({ cells: [{ cell_type: 'markdown', metadata: {}, source: ['hi'] }], nbformat: 4, nbformat_minor: 4 }, null, 1)}\n`;
    await writeFile(join(ws.dir, 'book.ipynb'), notebook);
    okText(await ws.provider.execute('read', { path: 'keep.txt' }, context()));
    okText(await ws.provider.execute('read', { path: 'book.ipynb' }, context()));
    for (const [tool, args] of [
      ['write', { path: 'x\ud800.txt', content: 'a' }],
      ['write', { path: 'new.txt', content: 'half \udc00 of a pair' }],
      ['write', { path: 'keep.txt', content: 'a\ud83d' }],
      ['edit', { path: 'keep.txt', old_string: 'keep', new_string: 'lost \ud800' }],
      ['notebook_edit', { path: 'book.ipynb', cell_index: 0, new_source: 'bad \udfff' }],
    ] as const) {
      const error = failure(await ws.provider.execute(tool, args, context()));
      expect(error.code, `${tool} ${JSON.stringify(args)}`).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain('surrogate');
    }
    expect(await readFile(join(ws.dir, 'keep.txt'), 'utf8')).toBe('keep me\n');
    expect(await readFile(join(ws.dir, 'book.ipynb'), 'utf8')).toBe(notebook);
    expect((await readdir(ws.dir)).sort()).toEqual(['book.ipynb', 'keep.txt']);
    // A whole pair is fine.
    okText(
      await ws.provider.execute('write', { path: 'emoji.txt', content: 'ok \ud83d\ude00\n' }, context()),
    );
    expect(await readFile(join(ws.dir, 'emoji.txt'), 'utf8')).toBe('ok 😀\n');
  });
});

describe('UTF-16 big-endian files', () => {
  it('are read as text and edited in their own encoding', async () => {
    const utf16be = (text: string): Buffer =>
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    await writeFile(join(ws.dir, 'be.txt'), utf16be('hello world\nline two ü€😀\n'));
    const text = okText(await ws.provider.execute('read', { path: 'be.txt' }, context()));
    expect(text).toContain('1\thello world');
    expect(text).toContain('2\tline two ü€😀');
    okText(
      await ws.provider.execute(
        'edit',
        { path: 'be.txt', old_string: 'world', new_string: 'wörld' },
        context(),
      ),
    );
    expect(await readFile(join(ws.dir, 'be.txt'))).toEqual(utf16be('hello wörld\nline two ü€😀\n'));
  });
});

describe('notebooks that are not quite notebooks', () => {
  it('refuses cells that are not objects with a cell_type, leaving the file as it was', async () => {
    const text = JSON.stringify({ cells: [null, 5, { source: 'no type' }], nbformat: 4, nbformat_minor: 4 });
    await writeFile(join(ws.dir, 'odd.ipynb'), text);
    okText(await ws.provider.execute('read', { path: 'odd.ipynb' }, context()));
    for (const args of [
      { cell_index: 0, new_source: 'a' },
      { cell_id: 'q', new_source: 'a' },
      { cell_index: 2, new_source: 'a' },
    ]) {
      const error = failure(
        await ws.provider.execute('notebook_edit', { path: 'odd.ipynb', ...args }, context()),
      );
      expect(error.code).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain('cell 0 is not an object');
    }
    expect(await readFile(join(ws.dir, 'odd.ipynb'), 'utf8')).toBe(text);
  });
});

describe('directories that change during a call', () => {
  it('list never fails with a raw error while a command keeps creating and removing directories', async () => {
    const churn = spawn('sh', ['-c', 'while true; do mkdir -p d/e/f d2/x; rm -rf d d2; done'], {
      cwd: ws.dir,
      stdio: 'ignore',
    });
    try {
      for (let round = 0; round < 150; round++) {
        for (const args of [
          { path: '.', depth: 4 },
          { path: 'd', depth: 3 },
        ]) {
          const result = await ws.provider.execute('list', args, context());
          // Only the listed directory itself may be missing, and that is the caller's to hear.
          if (!result.ok) {
            expect(result.error.code, result.error.message).toBe('INVALID_ARGUMENTS');
            expect(result.error.message).toMatch(/^d (no longer exists|does not exist)/);
          }
        }
      }
    } finally {
      churn.kill('SIGKILL');
      await new Promise((done) => churn.once('exit', done));
    }
  });
});

describe('mounted backends', () => {
  it('hands read the call signal, so cancelling a read of a slow backend ends the call', async () => {
    const signals: Array<AbortSignal | undefined> = [];
    // A backend that answers only when told to stop (a database call that would never return).
    const slow = {
      kind: 'slow',
      readFile: (_path: string, signal?: AbortSignal) => {
        signals.push(signal);
        return new Promise<Uint8Array>((_, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      },
      writeFile: async () => {},
      stat: async () => ({ type: 'file' as const, size: 3, mtimeMs: 1 }),
      readdir: async () => [],
      remove: async () => {},
    };
    const mounted = createBuiltinProvider({
      workspace: ws.dir,
      mounts: [{ path: 'memory', fileSystem: slow }],
    });
    try {
      const controller = new AbortController();
      const call = mounted.execute(
        'read',
        { path: 'memory/notes.md' },
        context('s1', { signal: controller.signal }),
      );
      await eventually(() => signals.length > 0);
      controller.abort();
      const outcome = await Promise.race([
        call,
        new Promise<'still pending'>((done) => setTimeout(() => done('still pending'), 10_000)),
      ]);
      expect(outcome).not.toBe('still pending');
      expect(failure(outcome as ToolResult).code).toBe('CANCELLED');
    } finally {
      await mounted.close?.();
    }
  });
});
