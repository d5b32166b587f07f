// `read` decodes a UTF-16 file as it reads it, in flat memory, so a large UTF-16 log (26 MB here)
// reads like any other file.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, makeTempDir, okText, textOf } from '../helpers/index.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

describe('read of a large UTF-16 file', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let provider: BuiltinProvider;
  const ctx = context('utf16-large');

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-read-utf16-large-'));
    const rows = Array.from({ length: 600_000 }, (_, i) => `entrée ${String(i + 1).padStart(7, '0')} ok`);
    // About 26 MB, in both byte orders, with Windows line ends.
    const text = `\ufeff${rows.join('\r\n')}\r\n`;
    await writeFile(join(dir, 'le.log'), Buffer.from(text, 'utf16le'));
    await writeFile(join(dir, 'be.log'), Buffer.from(text, 'utf16le').swap16());
    provider = createBuiltinProvider({ workspace: dir, tools: ['read', 'edit'] });
  });
  afterAll(async () => {
    await provider.close?.();
    await cleanup();
  });

  it.each(['le.log', 'be.log'])(
    'reads lines deep into %s with numbers and a note on where it goes on',
    async (path) => {
      const result = await provider.execute('read', { path, offset: 500_000, limit: 3 }, ctx);
      expect(okText(result)).toBe(
        '500000\tentrée 0500000 ok\n500001\tentrée 0500001 ok\n500002\tentrée 0500002 ok\n\n' +
          `(${path} continues after line 500002 of 600000; pass offset=500003 to read more)`,
      );
      expect(result.ok && result.structured).toMatchObject({ firstLine: 500_000, lines: 3, more: true });
    },
  );

  it('reads the head without counting the rest, and says when an offset is past the end', async () => {
    const head = okText(await provider.execute('read', { path: 'le.log', limit: 2 }, ctx));
    expect(head).toBe(
      '     1\tentrée 0000001 ok\n     2\tentrée 0000002 ok\n\n(le.log continues after line 2; pass offset=3 to read more)',
    );
    expect(textOf(await provider.execute('read', { path: 'le.log', offset: 700_000 }, ctx))).toBe(
      'INVALID_ARGUMENTS: offset 700000 is past the end of le.log (600000 lines); pass a smaller offset',
    );
  });

  it('still leaves edits of it to the edit size limit', async () => {
    const result = await provider.execute(
      'edit',
      { path: 'le.log', old_string: 'entrée 0000001', new_string: 'x' },
      ctx,
    );
    expect(result.ok ? 'ok' : result.error.code).toBe('INVALID_ARGUMENTS');
  });
});
