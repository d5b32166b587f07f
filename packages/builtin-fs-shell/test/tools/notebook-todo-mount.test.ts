import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DirEntry, FileStat, FileSystem } from '@toolplane/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { context, makeTempDir, okText, textOf } from '../helpers/index.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

/** A real in-memory backend (what a server would back with a database). */
function memoryFileSystem(): FileSystem & { files: Map<string, { data: Uint8Array; mtimeMs: number }> } {
  const files = new Map<string, { data: Uint8Array; mtimeMs: number }>();
  let clock = 1_700_000_000_000;
  return {
    kind: 'memory',
    files,
    async readFile(path) {
      const file = files.get(path);
      if (!file) throw Object.assign(new Error(`${path}: not found`), { code: 'ENOENT' });
      return file.data;
    },
    async writeFile(path, data) {
      clock += 1000;
      files.set(path, { data: new Uint8Array(data), mtimeMs: clock });
    },
    async stat(path): Promise<FileStat | undefined> {
      if (path === '.') return { type: 'directory', size: 0, mtimeMs: 0 };
      const file = files.get(path);
      return file ? { type: 'file', size: file.data.length, mtimeMs: file.mtimeMs } : undefined;
    },
    async readdir(path): Promise<readonly DirEntry[]> {
      const prefix = path === '.' ? '' : `${path}/`;
      const names = new Set<string>();
      for (const key of files.keys())
        if (key.startsWith(prefix)) names.add(key.slice(prefix.length).split('/')[0] as string);
      return [...names]
        .sort()
        .map((name) => ({ name, type: files.has(prefix + name) ? 'file' : 'directory' }));
    },
    async remove(path) {
      files.delete(path);
    },
  };
}

describe('notebook_edit, todos and mounts', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let provider: BuiltinProvider;
  let memory: ReturnType<typeof memoryFileSystem>;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-nb-'));
    memory = memoryFileSystem();
    provider = createBuiltinProvider({ workspace: dir, mounts: [{ path: 'memory', fileSystem: memory }] });
  });
  afterEach(async () => {
    await provider.close?.();
    await cleanup();
  });
  const call = (name: string, args: Record<string, unknown>, session = 's1') =>
    provider.execute(name, args, context(session));

  const notebook = {
    cells: [
      { cell_type: 'markdown', id: 'intro', metadata: {}, source: ['# Title\n', 'text'] },
      {
        cell_type: 'code',
        id: 'calc',
        metadata: {},
        source: ['1 + 1'],
        outputs: [{ output_type: 'execute_result' }],
        execution_count: 3,
      },
    ],
    metadata: { kernelspec: { name: 'python3' } },
    nbformat: 4,
    nbformat_minor: 5,
  };

  it('replaces, inserts and deletes cells, keeping the notebook format', async () => {
    const path = join(dir, 'nb.ipynb');
    await writeFile(path, `${JSON.stringify(notebook, null, 1)}\n`);
    expect(
      textOf(await call('notebook_edit', { path: 'nb.ipynb', cell_id: 'calc', new_source: '2 + 2' })),
    ).toMatch(/has not been read/);
    okText(await call('read', { path: 'nb.ipynb' }));
    okText(await call('notebook_edit', { path: 'nb.ipynb', cell_id: 'calc', new_source: 'x = 2\nx * 2' }));
    let saved = JSON.parse(await readFile(path, 'utf8'));
    expect(saved.cells[1]).toEqual({
      cell_type: 'code',
      id: 'calc',
      metadata: {},
      source: ['x = 2\n', 'x * 2'],
      outputs: [],
      execution_count: null,
    });
    okText(
      await call('notebook_edit', {
        path: 'nb.ipynb',
        edit_mode: 'insert',
        cell_id: 'intro',
        cell_type: 'markdown',
        new_source: 'Between',
      }),
    );
    saved = JSON.parse(await readFile(path, 'utf8'));
    expect(saved.cells.map((cell: { source: string[] }) => cell.source.join(''))).toEqual([
      '# Title\ntext',
      'Between',
      'x = 2\nx * 2',
    ]);
    expect(saved.cells[1].id).toMatch(/^[0-9a-f]{8}$/);
    okText(await call('notebook_edit', { path: 'nb.ipynb', edit_mode: 'delete', cell_index: 0 }));
    saved = JSON.parse(await readFile(path, 'utf8'));
    expect(saved.cells).toHaveLength(2);
    expect(saved.metadata).toEqual(notebook.metadata);
    expect((await readFile(path, 'utf8')).startsWith('{\n "cells"')).toBe(true);
  });

  it('refuses bad notebook edits clearly', async () => {
    await writeFile(join(dir, 'nb.ipynb'), JSON.stringify(notebook));
    await writeFile(join(dir, 'broken.ipynb'), '{ nope');
    okText(await call('read', { path: 'nb.ipynb' }));
    okText(await call('read', { path: 'broken.ipynb' }));
    expect(
      textOf(await call('notebook_edit', { path: 'nb.ipynb', cell_id: 'nope', new_source: 'x' })),
    ).toMatch(/no cell with id "nope".*intro, calc/);
    expect(textOf(await call('notebook_edit', { path: 'nb.ipynb', cell_index: 9, new_source: 'x' }))).toMatch(
      /out of range; nb.ipynb has 2 cells/,
    );
    expect(
      textOf(await call('notebook_edit', { path: 'nb.ipynb', edit_mode: 'insert', new_source: 'x' })),
    ).toMatch(/cell_type is required/);
    expect(textOf(await call('notebook_edit', { path: 'nb.ipynb', cell_id: 'calc' }))).toMatch(
      /new_source is required/,
    );
    expect(textOf(await call('notebook_edit', { path: 'nb.ipynb', new_source: 'x' }))).toMatch(
      /pass cell_id or cell_index/,
    );
    expect(
      textOf(await call('notebook_edit', { path: 'broken.ipynb', cell_index: 0, new_source: 'x' })),
    ).toMatch(/not valid JSON/);
    expect(textOf(await call('notebook_edit', { path: 'a.txt', cell_index: 0, new_source: 'x' }))).toMatch(
      /not a \.ipynb file/,
    );
  });

  it('keeps a task list per session', async () => {
    const written = await call('todo_write', {
      todos: [
        { content: 'write tests', status: 'in_progress', priority: 'high' },
        { content: 'ship', status: 'pending' },
      ],
    });
    expect(okText(written)).toBe('[~] 1. write tests (high)\n[ ] 2. ship');
    expect(okText(await call('todo_read', {}))).toBe('[~] 1. write tests (high)\n[ ] 2. ship');
    expect(okText(await call('todo_read', {}, 'other'))).toBe('The task list is empty.');
    expect(textOf(await call('todo_write', { todos: [{ content: 'x', status: 'done' }] }))).toMatch(
      /INVALID_ARGUMENTS/,
    );
    expect(
      textOf(
        await call('todo_write', {
          todos: [
            { id: 'a', content: 'x', status: 'pending' },
            { id: 'a', content: 'y', status: 'pending' },
          ],
        }),
      ),
    ).toMatch(/INVALID_ARGUMENTS: todo id "a" appears twice/);
    // A misspelt key is refused, and the list stays as it was.
    const misspelt = await call('todo_write', {
      todos: [{ content: 'ship', status: 'pending', priorty: 'high' }],
    });
    expect(textOf(misspelt)).toMatch(/^INVALID_ARGUMENTS: .*priorty/);
    expect(okText(await call('todo_read', {}))).toBe('[~] 1. write tests (high)\n[ ] 2. ship');
  });

  it('routes mounted paths to their backend, with read-before-write', async () => {
    await memory.writeFile('notes/today.md', Buffer.from('remember this\n'));
    expect(okText(await call('read', { path: 'memory/notes/today.md' }))).toBe(
      '     1\tremember this\n\n(end of file (1 lines))',
    );
    expect(textOf(await call('write', { path: 'memory/notes/today.md', content: 'x' }, 'fresh'))).toMatch(
      /has not been read/,
    );
    okText(await call('edit', { path: 'memory/notes/today.md', old_string: 'this', new_string: 'that' }));
    expect(Buffer.from(memory.files.get('notes/today.md')?.data ?? []).toString()).toBe('remember that\n');
    okText(await call('write', { path: 'memory/new.md', content: 'fresh file' }));
    expect(memory.files.has('new.md')).toBe(true);
    expect(okText(await call('list', { path: 'memory' }))).toBe('memory/ (2 entries)\nnotes/\nnew.md  10 B');
    // Nothing reached the disk.
    expect(await readFile(join(dir, 'memory', 'new.md')).catch(() => 'absent')).toBe('absent');
    expect(textOf(await call('grep', { pattern: 'x', path: 'memory' }))).toMatch(
      /served by a mounted backend/,
    );
  });
});
