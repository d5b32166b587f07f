// The Node engine and patterns that make V8's regular expressions backtrack: exponentially
// (`(a+)+$` on a run of `a`s followed by another character) or quadratically (`a.*b` on a long
// line without `b`). Unchecked, these hold the process for minutes to ages; the watchdog stops
// the slice running one and the search goes on with a linear-time engine. Each test would run
// past vitest's timeout without it (the sizes are chosen so), and every answer is checked
// against ripgrep's.
import { readdirSync, readlinkSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolResult } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GrepEngines, grepEngines } from '../helpers/grep-engines.js';
import { context, makeTempDir } from '../helpers/index.js';

/** A line V8 needs about 2^40 steps to refuse for `(a+)+$`. */
const EXPONENTIAL = `${'a'.repeat(40)}!`;
/** A line V8 needs about (600k)^2 / 2 steps to refuse for `a.*b` (minutes here). */
const QUADRATIC = 'a'.repeat(600_000);

/** Descriptors of this process open on files under `dir` (the searched files and directories). */
function openUnder(dir: string): string[] {
  const open: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(dir)) open.push(target);
    } catch {
      // closed meanwhile
    }
  }
  return open;
}

describe('grep through the Node engine with patterns that backtrack', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let engines: GrepEngines;
  const ctx = context('backtracking-grep');

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-grep-backtrack-'));
    // Files before and after the bad one (in path order), with matches, so both the part
    // searched before the cut and the part after it show up.
    for (let i = 0; i < 30; i++) {
      const name = `f${String(i).padStart(2, '0')}.txt`;
      await writeFile(join(dir, name), `head ${i}\naaa\nAAAA\nab then b\nx${i}\n`);
    }
    await writeFile(join(dir, 'f15-bad.txt'), `before\naa\n${EXPONENTIAL}\n${EXPONENTIAL}\nafter aaaa\n`);
    await writeFile(join(dir, 'f16-long.txt'), `${QUADRATIC}\nand a b here\n`);
    await mkdir(join(dir, 'long'));
    await writeFile(join(dir, 'long', 'a'.repeat(250)), 'needle\n');
    engines = grepEngines(dir, ctx);
  });
  afterAll(async () => {
    await engines.close();
    await cleanup();
  });

  const both = (args: Record<string, unknown>) => engines.both(args);

  it('finds the lines of an exponential pattern, in every mode, and leaves no file open', async () => {
    const content = await both({ pattern: '(a+)+$', output_mode: 'content', head_limit: 1000 });
    expect(content).toContain('f15-bad.txt\n2:aa\n--\n5:after aaaa');
    expect(content).toContain('f00.txt\n2:aaa');
    expect(content).toContain('f29.txt\n2:aaa');
    expect(content).not.toContain('!');
    expect(content).toContain('f16-long.txt\n1:aaaa');
    expect(content).toContain('(33 matching lines in 32 files)');
    const counted = await both({ pattern: '(a+)+$', output_mode: 'count' });
    expect(counted).toContain('f15-bad.txt:2');
    const files = await both({ pattern: '(a+)+$', output_mode: 'files_with_matches' });
    expect(files.split('\n')).toContain('f15-bad.txt');
    const withContext = await both({ pattern: '(a+)+$', output_mode: 'content', context: 1, glob: 'f15*' });
    expect(withContext).toContain('1-before\n2:aa\n3-aaaa');
    expect(openUnder(dir)).toEqual([]);
  });

  it('switches for a quadratic pattern on a long line', async () => {
    const content = await both({ pattern: 'a.*b', output_mode: 'content', glob: 'f1[56]*' });
    expect(content).toContain('f16-long.txt\n2:and a b here');
    expect(content).not.toContain('aaaaaaaaaa');
  });

  it('switches for a case-insensitive pattern', async () => {
    const content = await both({ pattern: '(A+)+$', case_insensitive: true, output_mode: 'count' });
    expect(content).toContain('f15-bad.txt:2');
    expect(content).toContain('f07.txt:2');
  });

  it('fails a backtracking pattern the linear engine cannot read with INVALID_ARGUMENTS that says what to do', async () => {
    // `\Z` is the letter Z to V8 without the u flag; RE2 (and ripgrep) refuse it.
    const result: ToolResult = await engines.node.execute('grep', { pattern: '(a+)+\\Z', glob: 'f15*' }, ctx);
    expect(result.ok).toBe(false);
    expect(result.ok ? undefined : result.error.code).toBe('INVALID_ARGUMENTS');
    const message = result.ok ? '' : result.error.message;
    expect(message).toContain('backtracks too long');
    expect(message).toContain('install ripgrep');
    if (engines.rg) {
      const viaRipgrep = await engines.rg.execute('grep', { pattern: '(a+)+\\Z', glob: 'f15*' }, ctx);
      expect(viaRipgrep.ok ? undefined : viaRipgrep.error.code).toBe('INVALID_ARGUMENTS');
    }
  });

  it('answers glob filters that make picomatch backtrack on a long name, as ripgrep does', async () => {
    // picomatch turns each * into a backtracking [^/]*?: against a 250-character name such a
    // filter takes minutes per name with it (measured: 1.4 s at 80 characters, growing as n^4).
    expect(await both({ pattern: 'needle', path: 'long', glob: '*a*a*a*a*a*b' })).toContain('No matches');
    expect(await both({ pattern: 'needle', path: 'long', glob: '*a*a*a*a*a*' })).toContain('1 file match');
  });

  it('fails a search whose !(...) glob filter backtracks with INVALID_ARGUMENTS, in seconds not hours', async () => {
    // A negation is left to picomatch (RE2 cannot say it): 5 s at 45 characters, 26 s at 60
    // (measured), minutes at 250; the search stops after the two
    // budgets (1 s, then 10 s with the linear engine).
    const glob = 'a!(*a*a*a*a*a*a*a*a*b)x';
    const result = await engines.node.execute('grep', { pattern: 'needle', path: 'long', glob }, ctx);
    expect(result.ok ? 'ok' : result.error.code).toBe('INVALID_ARGUMENTS');
    const message = result.ok ? '' : result.error.message;
    expect(message).toContain(`glob filter: ${glob}`);
    expect(message).toContain('write it without !(...)');
  });
});
