import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, open, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRipgrep } from '../src/grep/find-ripgrep.js';
import { type BuiltinProviderOptions, createBuiltinProvider } from '../src/index.js';
import { useWorkspace, context, failure, inCI, makeTempDir, okText } from './helpers/index.js';

// Bad input to grep, glob and web_fetch: patterns, huge files, links outside, hostile pages.

const ripgrep = findRipgrep();
if (!ripgrep && inCI) throw new Error('ripgrep (rg) must be on PATH in CI: apt-get install ripgrep');

const ws = useWorkspace();

describe('grep patterns neither engine can take', () => {
  const engines: Array<[string, BuiltinProviderOptions['grep']]> = [['node', { ripgrep: false }]];
  if (ripgrep) engines.push(['ripgrep', { ripgrep }]);

  it.each(engines)(
    '%s: refuses a null byte, a line break and a huge pattern with INVALID_ARGUMENTS',
    async (_, grep) => {
      await mkdir(join(ws.dir, 'src'));
      await writeFile(join(ws.dir, 'src', 'a.txt'), 'a\0b\nhello\nworld\n');
      const engine = createBuiltinProvider({ workspace: ws.dir, grep });
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
    const handle = await open(join(ws.dir, 'huge.log'), 'w');
    await handle.write(
      Array.from({ length: 20_000 }, (_, i) => (i === 4321 ? 'ERROR disk full' : `ok ${i}`)).join('\n'),
    );
    await handle.truncate(2200 * 1024 * 1024);
    await handle.close();
  };

  it('without ripgrep, searches it too, in chunks, stopping where ripgrep stops (the NUL block)', async () => {
    await writeHuge();
    const nodeOnly = createBuiltinProvider({ workspace: ws.dir, grep: { ripgrep: false } });
    try {
      const result = await nodeOnly.execute(
        'grep',
        { pattern: 'ERROR', path: 'huge.log', output_mode: 'content' },
        context(),
      );
      expect(okText(result)).toBe('huge.log\n4322:ERROR disk full\n\n(1 matching line in 1 file)');
      expect(result.ok && result.structured).toMatchObject({ engine: 'node' });
    } finally {
      await nodeOnly.close?.();
    }
  });

  it.skipIf(!ripgrep)('with ripgrep, searches it, streamed', async () => {
    await writeHuge();
    const result = await ws.provider.execute(
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
      await mkdir(join(ws.dir, 'sub'));
      await writeFile(join(ws.dir, 'sub', 'inside.txt'), 'x');
      await symlink(outside, join(ws.dir, 'sub', 'out'));
      await symlink(outside, join(ws.dir, 'a+b'));
      for (const pattern of ['sub/out/*', 'sub/out/secret-name.txt', 'sub/./out/*', 'a+b/*', 'sub/*/*.txt']) {
        const result = await ws.provider.execute('glob', { pattern, sort: 'name' }, context());
        const text = okText(result);
        expect(result.ok && result.structured, pattern).toMatchObject({ paths: [] });
        if (pattern !== 'sub/*/*.txt')
          expect(text, pattern).toMatch(
            /\(the pattern goes through (sub\/out|a\+b), a symbolic link that leads outside the workspace: nothing was listed from there\)/,
          );
      }
      expect(okText(await ws.provider.execute('glob', { pattern: 'sub/*.txt' }, context()))).toContain(
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
    execFileSync('mkfifo', [join(ws.dir, 'pipe')]);
    const engine = createBuiltinProvider({ workspace: ws.dir, grep: { ripgrep: rg } });
    try {
      const error = failure(await engine.execute('grep', { pattern: 'x', path: 'pipe' }, context()));
      expect(error.code).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain('pipe is a special file');
    } finally {
      await engine.close?.();
    }
  });
});

describe('web pages a converter chokes on', () => {
  it('converts HTML nested 200 000 deep, flattening what is past the depth bound', async () => {
    const page = `<html><body>${'<div>'.repeat(200_000)}deep${'</div>'.repeat(200_000)}</body></html>`;
    const server = createServer((_, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end(page);
    });
    // The conversions hold this process for seconds under load: the server (in it too) must
    // not end the idle keep-alive connection meanwhile, while the next request is on its way.
    server.keepAliveTimeout = 120_000;
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const web = createBuiltinProvider({ workspace: ws.dir, webFetch: { allowPrivate: true } });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      for (const format of ['markdown', 'text']) {
        const text = okText(await web.execute('web_fetch', { url, format }, context()));
        expect(text).toMatch(/\n\ndeep$/);
      }
      const raw = okText(await web.execute('web_fetch', { url, format: 'html' }, context()));
      expect(raw).toContain('<body><div><div>');
    } finally {
      await web.close?.();
      await new Promise((done) => server.close(done));
    }
  });
});
