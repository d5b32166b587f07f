// grep shows a file name holding a line break or an invisible character quoted with escapes, the
// same through ripgrep and the Node engine, so a name cannot pass for other lines of the result.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, inCI, makeTempDir, okText } from '../helpers/index.js';
import { findRipgrep } from '../../src/grep/find-ripgrep.js';
import { compilePattern } from '../../src/grep/pattern.js';
import { parseRipgrepOutput } from '../../src/grep/ripgrep.js';
import type { SearchRequest } from '../../src/grep/search-request.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

const ripgrep = findRipgrep();
if (!ripgrep && inCI) throw new Error('ripgrep (rg) must be on PATH in CI: apt-get install ripgrep');

describe('grep and file names with line breaks or invisible characters', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const providers: BuiltinProvider[] = [];
  const ctx = context('special-grep');

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-grep-names-'));
    await writeFile(join(dir, 'evil\n.env'), 'needle here\n');
    await mkdir(join(dir, 'sub\u202edir'));
    await writeFile(join(dir, 'sub\u202edir', 'x.txt'), 'a needle\n');
    await writeFile(join(dir, 'plain.txt'), 'needle one\nother\nneedle two\n');
    providers.push(createBuiltinProvider({ workspace: dir, tools: ['grep'], grep: { ripgrep: false } }));
    if (ripgrep) providers.push(createBuiltinProvider({ workspace: dir, tools: ['grep'] }));
  });
  afterAll(async () => {
    for (const provider of providers) await provider.close?.();
    await cleanup();
  });

  const grep = async (provider: BuiltinProvider, output_mode: string, extra: Record<string, unknown> = {}) =>
    okText(await provider.execute('grep', { pattern: 'needle', output_mode, ...extra }, ctx));

  it.each(['content', 'files_with_matches', 'count'])('in %s mode', async (mode) => {
    const texts = await Promise.all(providers.map((provider) => grep(provider, mode)));
    const [node, rg] = texts;
    for (const text of texts) {
      expect(text).toContain('"evil\\n.env"');
      expect(text).toContain('"sub\\u202edir"/x.txt');
      expect(text).not.toContain('evil\n');
      expect(text).not.toContain('\u202e');
      expect(text).toContain('(2 names hold line breaks, control or invisible characters');
      expect(text).toContain('plain.txt');
    }
    if (rg !== undefined) expect(sortedLines(rg)).toEqual(sortedLines(node ?? ''));
  });

  it('reads the whole name from ripgrep, context lines and group separators included', async () => {
    const texts = await Promise.all(providers.map((provider) => grep(provider, 'content', { context: 1 })));
    for (const text of texts) {
      expect(text).toMatch(/^"evil\\n\.env"\n1:needle here$/m);
      expect(text).toMatch(/^plain\.txt\n1:needle one\n2-other\n3:needle two$/m);
    }
  });

  it('keeps only the last row of a path when the rows before it do not make a file that exists', () => {
    const request: SearchRequest = {
      root: dir,
      rootIsFile: false,
      pattern: compilePattern('needle', false),
      mode: 'content',
      globs: [],
      before: 0,
      after: 0,
      respectGitignore: false,
      skipDirectories: [],
      hardMatchCap: 100,
    };
    // A note of a kind the parser does not know, then a file; then a name with a line break.
    const output =
      './a.log: SOME FUTURE NOTE\n./plain.txt\x001:0:needle one\n./evil\n.env\x001:0:needle here\n';
    expect(parseRipgrepOutput(output, request).map((file) => file.path)).toEqual(['plain.txt', 'evil\n.env']);
  });
});

/** The lines of a result in order of text, for engines that list files in different orders. */
function sortedLines(text: string): string[] {
  return text.split('\n').sort();
}
