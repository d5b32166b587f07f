import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, open, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError, type ToolResult } from '@toolplane/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findRipgrep } from '../src/grep/find-ripgrep.js';
import { type BuiltinProvider, type BuiltinProviderOptions, createBuiltinProvider } from '../src/index.js';
import { context, eventually, inCI, makeTempDir, okText, textOf } from './helpers.js';

// Inputs a confused or hostile model or operator sends, beyond the ones the issue listed.

const ripgrep = findRipgrep();
if (!ripgrep && inCI) throw new Error('ripgrep (rg) must be on PATH in CI: apt-get install ripgrep');

let dir: string;
let cleanup: () => Promise<void>;
let provider: BuiltinProvider;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  provider = createBuiltinProvider({ workspace: dir });
});

afterEach(async () => {
  await provider.close?.();
  await cleanup();
});

function failure(result: ToolResult): { code: string; message: string } {
  if (result.ok) throw new Error(`expected a failure, got: ${textOf(result)}`);
  return result.error;
}

describe('parallel mutations of one file', () => {
  it('keeps every one of ten edits sent at once by one session', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i}`);
    await writeFile(join(dir, 'many.txt'), `${lines.join('\n')}\n`);
    okText(await provider.execute('read', { path: 'many.txt' }, context()));
    const results = await Promise.all(
      lines.map((line) =>
        provider.execute(
          'edit',
          { path: 'many.txt', old_string: `${line}\n`, new_string: `EDITED ${line}\n` },
          context(),
        ),
      ),
    );
    for (const result of results) okText(result);
    expect(await readFile(join(dir, 'many.txt'), 'utf8')).toBe(
      `${lines.map((line) => `EDITED ${line}`).join('\n')}\n`,
    );
  });

  it('refuses the second of two sessions that read the same version, instead of overwriting the first', async () => {
    await writeFile(join(dir, 'shared.txt'), 'alpha\nbeta\n');
    okText(await provider.execute('read', { path: 'shared.txt' }, context('one')));
    okText(await provider.execute('read', { path: 'shared.txt' }, context('two')));
    const [first, second] = await Promise.all([
      provider.execute(
        'edit',
        { path: 'shared.txt', old_string: 'alpha', new_string: 'ALPHA' },
        context('one'),
      ),
      provider.execute(
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
    expect(await readFile(join(dir, 'shared.txt'), 'utf8')).toBe(
      winner === 0 ? 'ALPHA\nbeta\n' : 'alpha\nBETA\n',
    );
  });
});

describe('paths at the edges of the file system', () => {
  it('writes a file whose name is long but legal, leaving no temp file', async () => {
    const name = `${'n'.repeat(246)}.txt`; // 250 bytes: under NAME_MAX, but not with a temp suffix
    okText(await provider.execute('write', { path: name, content: 'long name\n' }, context()));
    expect(await readFile(join(dir, name), 'utf8')).toBe('long name\n');
    expect(await readdir(dir)).toEqual([name]);
  });

  it('refuses a name over 255 bytes with INVALID_ARGUMENTS', async () => {
    const name = 'm'.repeat(300);
    for (const [tool, args] of [
      ['read', { path: name }],
      ['write', { path: name, content: 'x' }],
      ['list', { path: name }],
    ] as const) {
      const error = failure(await provider.execute(tool, args, context()));
      expect(error.code, tool).toBe('INVALID_ARGUMENTS');
      expect(error.message).toMatch(/too long .*255 bytes/);
    }
  });

  it('refuses a path that goes through a file, and creates nothing', async () => {
    await writeFile(join(dir, 'plain.txt'), 'data\n');
    for (const [tool, args] of [
      ['write', { path: 'plain.txt/child.txt', content: 'x' }],
      ['read', { path: 'plain.txt/child.txt' }],
      ['list', { path: 'plain.txt/sub' }],
    ] as const) {
      const error = failure(await provider.execute(tool, args, context()));
      expect(error.code, tool).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain('plain.txt is a file, not a directory');
      expect(error.message).not.toContain(dir);
    }
    expect(await readFile(join(dir, 'plain.txt'), 'utf8')).toBe('data\n');
  });

  it('refuses a write path with a trailing slash instead of creating a file there', async () => {
    const error = failure(await provider.execute('write', { path: 'notes/', content: 'x' }, context()));
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message).toContain('ends with "/"');
    expect(existsSync(join(dir, 'notes'))).toBe(false);
  });
});

describe('lone UTF-16 surrogates', () => {
  it('are refused in paths, written content, edits and notebook cells, changing nothing', async () => {
    await writeFile(join(dir, 'keep.txt'), 'keep me\n');
    const notebook = `${JSON.stringify({ cells: [{ cell_type: 'markdown', metadata: {}, source: ['hi'] }], nbformat: 4, nbformat_minor: 4 }, null, 1)}\n`;
    await writeFile(join(dir, 'book.ipynb'), notebook);
    okText(await provider.execute('read', { path: 'keep.txt' }, context()));
    okText(await provider.execute('read', { path: 'book.ipynb' }, context()));
    for (const [tool, args] of [
      ['write', { path: 'x\ud800.txt', content: 'a' }],
      ['write', { path: 'new.txt', content: 'half \udc00 of a pair' }],
      ['write', { path: 'keep.txt', content: 'a\ud83d' }],
      ['edit', { path: 'keep.txt', old_string: 'keep', new_string: 'lost \ud800' }],
      ['notebook_edit', { path: 'book.ipynb', cell_index: 0, new_source: 'bad \udfff' }],
    ] as const) {
      const error = failure(await provider.execute(tool, args, context()));
      expect(error.code, `${tool} ${JSON.stringify(args)}`).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain('surrogate');
    }
    expect(await readFile(join(dir, 'keep.txt'), 'utf8')).toBe('keep me\n');
    expect(await readFile(join(dir, 'book.ipynb'), 'utf8')).toBe(notebook);
    expect((await readdir(dir)).sort()).toEqual(['book.ipynb', 'keep.txt']);
    // A whole pair is fine.
    okText(await provider.execute('write', { path: 'emoji.txt', content: 'ok \ud83d\ude00\n' }, context()));
    expect(await readFile(join(dir, 'emoji.txt'), 'utf8')).toBe('ok 😀\n');
  });
});

describe('UTF-16 big-endian files', () => {
  it('are read as text and edited in their own encoding', async () => {
    const utf16be = (text: string): Buffer =>
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    await writeFile(join(dir, 'be.txt'), utf16be('hello world\nline two ü€😀\n'));
    const text = okText(await provider.execute('read', { path: 'be.txt' }, context()));
    expect(text).toContain('1\thello world');
    expect(text).toContain('2\tline two ü€😀');
    okText(
      await provider.execute('edit', { path: 'be.txt', old_string: 'world', new_string: 'wörld' }, context()),
    );
    expect(await readFile(join(dir, 'be.txt'))).toEqual(utf16be('hello wörld\nline two ü€😀\n'));
  });
});

describe('notebooks that are not quite notebooks', () => {
  it('refuses cells that are not objects with a cell_type, leaving the file as it was', async () => {
    const text = JSON.stringify({ cells: [null, 5, { source: 'no type' }], nbformat: 4, nbformat_minor: 4 });
    await writeFile(join(dir, 'odd.ipynb'), text);
    okText(await provider.execute('read', { path: 'odd.ipynb' }, context()));
    for (const args of [
      { cell_index: 0, new_source: 'a' },
      { cell_id: 'q', new_source: 'a' },
      { cell_index: 2, new_source: 'a' },
    ]) {
      const error = failure(
        await provider.execute('notebook_edit', { path: 'odd.ipynb', ...args }, context()),
      );
      expect(error.code).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain('cell 0 is not an object');
    }
    expect(await readFile(join(dir, 'odd.ipynb'), 'utf8')).toBe(text);
  });
});

describe('bash', () => {
  it('refuses a null byte in the command with INVALID_ARGUMENTS, in the foreground and the background', async () => {
    for (const background of [false, true]) {
      const error = failure(
        await provider.execute('bash', { command: 'echo a\0b', run_in_background: background }, context()),
      );
      expect(error.code).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain('null byte');
    }
  });

  it('runs nothing for a call whose signal was aborted before it started', async () => {
    const aborted = new AbortController();
    aborted.abort();
    for (const [background, marker] of [
      [false, 'fg.txt'],
      [true, 'bg.txt'],
    ] as const) {
      const result = await provider.execute(
        'bash',
        { command: `echo ran > ${marker}`, run_in_background: background },
        context('s1', { signal: aborted.signal }),
      );
      expect(failure(result).code).toBe('CANCELLED');
    }
    // Give a command that did start time to leave its mark (nothing should).
    okText(await provider.execute('bash', { command: 'sleep 0.3' }, context()));
    expect(existsSync(join(dir, 'fg.txt'))).toBe(false);
    expect(existsSync(join(dir, 'bg.txt'))).toBe(false);
    expect(okText(await provider.execute('process', {}, context()))).not.toContain('echo ran');
  });
});

describe('calls racing close', () => {
  it('starts no command once close() has begun, in the foreground or the background', async () => {
    const calls = [
      provider.execute('bash', { command: 'sleep 0.5; touch fg-ran' }, context()),
      provider.execute('bash', { command: 'sleep 0.5; touch bg-ran', run_in_background: true }, context()),
    ];
    await provider.close?.();
    for (const result of await Promise.all(calls)) {
      expect(failure(result).code).toBe('PROVIDER_UNAVAILABLE');
    }
    // Long enough for a command that did start to leave its mark.
    await new Promise((done) => setTimeout(done, 1500));
    expect(existsSync(join(dir, 'fg-ran'))).toBe(false);
    expect(existsSync(join(dir, 'bg-ran'))).toBe(false);
  });
});

describe('background tasks', () => {
  it('task_output reports a cancelled wait as CANCELLED, and the task keeps running', async () => {
    const started = await provider.execute(
      'bash',
      { command: 'sleep 30', run_in_background: true },
      context(),
    );
    const taskId = (started.ok ? started.structured : undefined) as { taskId: string };
    const controller = new AbortController();
    const waiting = provider.execute(
      'task_output',
      { task_id: taskId.taskId, block: true, timeout: 60_000 },
      context('s1', { signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 200);
    const error = failure(await waiting);
    expect(error.code).toBe('CANCELLED');
    expect(error.message).toContain('keeps running');
    const status = await provider.execute('task_output', { task_id: taskId.taskId, block: false }, context());
    expect(okText(status)).toContain('running');
  });
});

describe('grep patterns neither engine can take', () => {
  const engines: Array<[string, BuiltinProviderOptions['grep']]> = [['node', { ripgrep: false }]];
  if (ripgrep) engines.push(['ripgrep', { ripgrep }]);

  it.each(engines)(
    '%s: refuses a null byte, a line break and a huge pattern with INVALID_ARGUMENTS',
    async (_, grep) => {
      await mkdir(join(dir, 'src'));
      await writeFile(join(dir, 'src', 'a.txt'), 'a\0b\nhello\nworld\n');
      const engine = createBuiltinProvider({ workspace: dir, grep });
      try {
        for (const [pattern, expected] of [
          ['a\0b', 'null byte'],
          ['hello\nworld', 'line break'],
          ['a'.repeat(200_000), 'over the 10000 limit'],
        ] as const) {
          const error = failure(await engine.execute('grep', { pattern, output_mode: 'content' }, context()));
          expect(error.code).toBe('INVALID_ARGUMENTS');
          expect(error.message).toContain(expected);
        }
      } finally {
        await engine.close?.();
      }
    },
  );
});

describe('grep of one huge file', () => {
  // Sparse: 2.2 GB long, 160 KB of text (past the first 64 KiB block) and a hole (NUL bytes) after. Read whole it
  // would be over Node's 2 GiB buffer limit.
  const writeHuge = async (): Promise<void> => {
    const handle = await open(join(dir, 'huge.log'), 'w');
    await handle.write(
      Array.from({ length: 20_000 }, (_, i) => (i === 4321 ? 'ERROR disk full' : `ok ${i}`)).join('\n'),
    );
    await handle.truncate(2200 * 1024 * 1024);
    await handle.close();
  };

  it('without ripgrep, refuses a file too large to read whole with INVALID_ARGUMENTS that says what to use', async () => {
    await writeHuge();
    const nodeOnly = createBuiltinProvider({ workspace: dir, grep: { ripgrep: false } });
    try {
      const error = failure(
        await nodeOnly.execute('grep', { pattern: 'ERROR', path: 'huge.log' }, context()),
      );
      expect(error.code).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain('install ripgrep (rg) on the host, search it with bash');
    } finally {
      await nodeOnly.close?.();
    }
  });

  it.skipIf(!ripgrep)('with ripgrep, searches it, streamed', async () => {
    await writeHuge();
    const result = await provider.execute(
      'grep',
      { pattern: 'ERROR', path: 'huge.log', output_mode: 'content' },
      context(),
    );
    expect(okText(result)).toBe('huge.log\n4322:ERROR disk full\n\n(1 matching line in 1 file)');
    expect(result.ok && result.structured).toMatchObject({ engine: 'ripgrep' });
  });
});

describe('search tools and what lies outside', () => {
  it('glob lists nothing under a symbolic link to a directory outside, even when the pattern names it', async () => {
    const { dir: outside, cleanup: removeOutside } = await makeTempDir('tp-outside-');
    try {
      await writeFile(join(outside, 'secret-name.txt'), 'x');
      await mkdir(join(dir, 'sub'));
      await writeFile(join(dir, 'sub', 'inside.txt'), 'x');
      await symlink(outside, join(dir, 'sub', 'out'));
      await symlink(outside, join(dir, 'a+b'));
      for (const pattern of ['sub/out/*', 'sub/out/secret-name.txt', 'sub/./out/*', 'a+b/*', 'sub/*/*.txt']) {
        const result = await provider.execute('glob', { pattern, sort: 'name' }, context());
        const text = okText(result);
        expect(result.ok && result.structured, pattern).toMatchObject({ paths: [] });
        if (pattern !== 'sub/*/*.txt')
          expect(text, pattern).toContain(
            '(1 match under symbolic links that lead outside the workspace were left out)',
          );
      }
      expect(okText(await provider.execute('glob', { pattern: 'sub/*.txt' }, context()))).toContain(
        'sub/inside.txt',
      );
    } finally {
      await removeOutside();
    }
  });

  it.each([
    ['node', false],
    ['ripgrep', ripgrep ?? false],
  ] as const)('%s: grep refuses a pipe or device as its path with INVALID_ARGUMENTS', async (_, rg) => {
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    const engine = createBuiltinProvider({ workspace: dir, grep: { ripgrep: rg } });
    try {
      const error = failure(await engine.execute('grep', { pattern: 'x', path: 'pipe' }, context()));
      expect(error.code).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain('pipe is a special file');
    } finally {
      await engine.close?.();
    }
  });
});

describe('directories that change during a call', () => {
  it('list never fails with a raw error while a command keeps creating and removing directories', async () => {
    const churn = spawn('sh', ['-c', 'while true; do mkdir -p d/e/f d2/x; rm -rf d d2; done'], {
      cwd: dir,
      stdio: 'ignore',
    });
    try {
      for (let round = 0; round < 150; round++) {
        for (const args of [
          { path: '.', depth: 4 },
          { path: 'd', depth: 3 },
        ]) {
          const result = await provider.execute('list', args, context());
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
    const mounted = createBuiltinProvider({ workspace: dir, mounts: [{ path: 'memory', fileSystem: slow }] });
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

describe('arguments a tool does not have', () => {
  it('are refused with the names the tool takes, instead of running without them', async () => {
    await writeFile(join(dir, 'lines.txt'), 'one\ntwo\nthree\n');
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
      const error = failure(await provider.execute(tool, args, context()));
      expect(error.code, tool).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain(message);
    }
    expect(existsSync(join(dir, 'ran.txt'))).toBe(false);
    okText(await provider.execute('read', { path: 'lines.txt', offset: 3 }, context()));
  });
});

describe('options that contradict each other', () => {
  it('edit refuses new_string or replace_all beside edits instead of ignoring them', async () => {
    await writeFile(join(dir, 'e.txt'), 'one two one\n');
    okText(await provider.execute('read', { path: 'e.txt' }, context()));
    for (const extra of [{ new_string: 'ZZZ' }, { replace_all: true }]) {
      const error = failure(
        await provider.execute(
          'edit',
          { path: 'e.txt', ...extra, edits: [{ old_string: 'one', new_string: '1' }] },
          context(),
        ),
      );
      expect(error.code).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain('inside each edit');
    }
    expect(await readFile(join(dir, 'e.txt'), 'utf8')).toBe('one two one\n');
  });

  it('edit refuses a key an edit does not have (replaceAll for replace_all) instead of dropping it', async () => {
    await writeFile(join(dir, 'k.txt'), 'one two one\n');
    okText(await provider.execute('read', { path: 'k.txt' }, context()));
    const error = failure(
      await provider.execute(
        'edit',
        { path: 'k.txt', edits: [{ old_string: 'one', new_string: '1', replaceAll: true }] },
        context(),
      ),
    );
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message).toContain('replaceAll');
    expect(await readFile(join(dir, 'k.txt'), 'utf8')).toBe('one two one\n');
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
    await writeFile(join(dir, 'n.ipynb'), text);
    okText(await provider.execute('read', { path: 'n.ipynb' }, context()));
    const error = failure(
      await provider.execute(
        'notebook_edit',
        { path: 'n.ipynb', cell_id: 'aa', cell_index: 1, new_source: 'Z' },
        context(),
      ),
    );
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message).toContain('cell_id "aa" is cell 0 but cell_index is 1');
    expect(await readFile(join(dir, 'n.ipynb'), 'utf8')).toBe(text);
    okText(
      await provider.execute(
        'notebook_edit',
        { path: 'n.ipynb', cell_id: 'bb', cell_index: 1, new_source: 'Z' },
        context(),
      ),
    );
  });
});

describe('web pages a converter chokes on', () => {
  it('answers HTML nested too deeply to convert with a message that names format "html"', async () => {
    const page = `<html><body>${'<div>'.repeat(200_000)}deep${'</div>'.repeat(200_000)}</body></html>`;
    const server = createServer((_, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end(page);
    });
    // The conversions hold this process for seconds under load: the server (in it too) must
    // not end the idle keep-alive connection meanwhile, while the next request is on its way.
    server.keepAliveTimeout = 120_000;
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const web = createBuiltinProvider({ workspace: dir, webFetch: { allowPrivate: true } });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      for (const format of ['markdown', 'text']) {
        const error = failure(await web.execute('web_fetch', { url, format }, context()));
        expect(error.code).toBe('EXECUTION_FAILED');
        expect(error.message).toContain('nested too deeply');
        expect(error.message).toContain('format "html"');
      }
      const raw = okText(await web.execute('web_fetch', { url, format: 'html' }, context()));
      expect(raw).toContain('<body><div><div>');
    } finally {
      await web.close?.();
      await new Promise((done) => server.close(done));
    }
  });
});

describe('provider options', () => {
  const configError = (options: Partial<BuiltinProviderOptions>): string => {
    try {
      const made = createBuiltinProvider({ workspace: dir, ...options } as BuiltinProviderOptions);
      void made.close?.();
    } catch (error) {
      if (ToolError.isInstance(error) && error.code === 'CONFIG_INVALID') return error.message;
      throw error;
    }
    throw new Error(`accepted ${JSON.stringify(options)}`);
  };

  it('refuses options that would fail every call or silently do something else, with CONFIG_INVALID', async () => {
    await writeFile(join(dir, 'file.txt'), 'x');
    const memory = { kind: 'memory', readFile: async () => new Uint8Array() } as never;
    expect(configError({ tools: ['read', 'nope' as never] })).toContain('unknown tool "nope"');
    expect(configError({ workspace: join(dir, 'file.txt') })).toContain('is a file; pass a directory');
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
