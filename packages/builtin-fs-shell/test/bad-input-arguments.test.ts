import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { type BuiltinProviderOptions, createBuiltinProvider } from '../src/index.js';
import { useWorkspace, context, failure, okText } from './helpers/index.js';

// Arguments a tool does not have or that contradict each other, and bad provider options.

const ws = useWorkspace();

describe('arguments a tool does not have', () => {
  it('are refused with the names the tool takes, instead of running without them', async () => {
    await writeFile(join(ws.dir, 'lines.txt'), 'one\ntwo\nthree\n');
    const cases = [
      [
        'read',
        { path: 'lines.txt', start_line: 3 },
        'read has no argument "start_line"; its arguments are path, offset, limit',
      ],
      ['grep', { pattern: 'two', include: '*.md' }, 'grep has no argument "include"'],
      [
        'bash',
        { command: 'echo ran > ran.txt', timeout_ms: 5, cwdir: 'x' },
        'bash has no arguments "timeout_ms", "cwdir"',
      ],
      ['process', { verbose: true }, 'process has no argument "verbose"; it takes no arguments'],
    ] as const;
    for (const [tool, args, message] of cases) {
      const error = failure(await ws.provider.execute(tool, args, context()));
      expect(error.code, tool).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain(message);
    }
    expect(existsSync(join(ws.dir, 'ran.txt'))).toBe(false);
    okText(await ws.provider.execute('read', { path: 'lines.txt', offset: 3 }, context()));
  });
});

describe('options that contradict each other', () => {
  it('edit refuses new_string or replace_all beside edits instead of ignoring them', async () => {
    await writeFile(join(ws.dir, 'e.txt'), 'one two one\n');
    okText(await ws.provider.execute('read', { path: 'e.txt' }, context()));
    for (const extra of [{ new_string: 'ZZZ' }, { replace_all: true }]) {
      const error = failure(
        await ws.provider.execute(
          'edit',
          { path: 'e.txt', ...extra, edits: [{ old_string: 'one', new_string: '1' }] },
          context(),
        ),
      );
      expect(error.code).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain('inside each edit');
    }
    expect(await readFile(join(ws.dir, 'e.txt'), 'utf8')).toBe('one two one\n');
  });

  it('edit refuses a key an edit does not have (replaceAll for replace_all) instead of dropping it', async () => {
    await writeFile(join(ws.dir, 'k.txt'), 'one two one\n');
    okText(await ws.provider.execute('read', { path: 'k.txt' }, context()));
    const error = failure(
      await ws.provider.execute(
        'edit',
        { path: 'k.txt', edits: [{ old_string: 'one', new_string: '1', replaceAll: true }] },
        context(),
      ),
    );
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message).toContain('replaceAll');
    expect(await readFile(join(ws.dir, 'k.txt'), 'utf8')).toBe('one two one\n');
  });

  it('notebook_edit refuses a cell_id and a cell_index that name different cells', async () => {
    const text = JSON.stringify({
      cells: [
        { cell_type: 'code', id: 'aa', source: 'x', metadata: {}, outputs: [], execution_count: null },
        { cell_type: 'code', id: 'bb', source: 'y', metadata: {}, outputs: [], execution_count: null },
      ],
      nbformat: 4,
      nbformat_minor: 5,
    });
    await writeFile(join(ws.dir, 'n.ipynb'), text);
    okText(await ws.provider.execute('read', { path: 'n.ipynb' }, context()));
    const error = failure(
      await ws.provider.execute(
        'notebook_edit',
        { path: 'n.ipynb', cell_id: 'aa', cell_index: 1, new_source: 'Z' },
        context(),
      ),
    );
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message).toContain('cell_id "aa" is cell 0 but cell_index is 1');
    expect(await readFile(join(ws.dir, 'n.ipynb'), 'utf8')).toBe(text);
    okText(
      await ws.provider.execute(
        'notebook_edit',
        { path: 'n.ipynb', cell_id: 'bb', cell_index: 1, new_source: 'Z' },
        context(),
      ),
    );
  });
});

describe('provider options', () => {
  const configError = (options: Partial<BuiltinProviderOptions>): string => {
    try {
      const made = createBuiltinProvider({ workspace: ws.dir, ...options } as BuiltinProviderOptions);
      void made.close?.();
    } catch (error) {
      if (ToolError.isInstance(error) && error.code === 'CONFIG_INVALID') return error.message;
      throw error;
    }
    throw new Error(`accepted ${JSON.stringify(options)}`);
  };

  it('refuses options that would fail every call or silently do something else, with CONFIG_INVALID', async () => {
    await writeFile(join(ws.dir, 'file.txt'), 'x');
    const memory = { kind: 'memory', readFile: async () => new Uint8Array() } as never;
    expect(configError({ tools: ['read', 'nope' as never] })).toContain('unknown tool "nope"');
    expect(configError({ workspace: join(ws.dir, 'file.txt') })).toContain('is a file; pass a directory');
    expect(configError({ workspace: 42 as never })).toContain('must be an absolute path');
    expect(configError({ limits: { readDefaultLines: Number.NaN } })).toContain('limits.readDefaultLines');
    expect(configError({ limits: { readMaxBytes: -1 } })).toContain('limits.readMaxBytes');
    expect(configError({ indexAhead: { minBytes: Number.NaN } })).toContain('indexAhead.minBytes');
    expect(configError({ mounts: [{ path: '.', fileSystem: memory }] })).toContain('mount path "."');
    expect(configError({ mounts: [{ path: '../outside', fileSystem: memory }] })).toContain('mount path');
    expect(configError({ protectedPaths: [''] })).toContain('protectedPaths');
    expect(configError({ env: { TOKEN: 'a\0b' } })).toContain('env.TOKEN');
    expect(configError({ webFetch: { allowedRanges: ['nonsense'] } })).toContain(
      '"nonsense" is not a CIDR range',
    );
    expect(configError({ webFetch: { timeoutMs: 0 } })).toContain('webFetch.timeoutMs');
    expect(() => createBuiltinProvider(undefined as never)).toThrow(/needs options/);
  });
});
