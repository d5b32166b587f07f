import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { context, failure, okText, useWorkspace } from '../helpers/index.js';

// Paths longer than the kernel's PATH_MAX (4096 bytes) made of short names: each name is fine,
// the whole is not, and no call may answer with a raw ENAMETOOLONG holding the host path.

const ws = useWorkspace();
const LONG = `${'a/'.repeat(2100)}f.txt`;

describe('paths over PATH_MAX', () => {
  it('are INVALID_ARGUMENTS for every file tool, naming the limit, without the host path', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['write', { path: LONG, content: 'x' }],
      ['read', { path: LONG }],
      ['edit', { path: LONG, old_string: 'a', new_string: 'b' }],
      ['list', { path: LONG }],
      ['notebook_edit', { path: `${LONG}.ipynb`, cell_index: 0, new_source: 'x' }],
      ['bash', { command: 'pwd', cwd: LONG }],
      ['glob', { pattern: '*', path: LONG }],
    ];
    for (const [tool, args] of calls) {
      const error = failure(await ws.provider.execute(tool, args, context()));
      expect({ tool, code: error.code }).toEqual({ tool, code: 'INVALID_ARGUMENTS' });
      expect(error.message).toMatch(/too long/);
      expect(error.message).not.toContain(ws.dir);
    }
  });

  it('are INVALID_ARGUMENTS for a file that exists deeper than PATH_MAX, which bash can still reach', {
    timeout: 30_000,
  }, async () => {
    // Three steps of 800 levels of "d/" put the file 4800 bytes below the workspace.
    const step = 'd/'.repeat(800);
    const made = okText(
      await ws.provider.execute(
        'bash',
        {
          command: `for i in 1 2 3; do mkdir -p ${step} && cd -P ${step} || exit 1; done; echo deep > f.txt`,
        },
        context(),
      ),
    );
    expect(made).toBe('[exit code 0]');
    const deep = `${'d/'.repeat(2400)}f.txt`;
    for (const [tool, args] of [
      ['read', { path: deep }],
      ['write', { path: deep, content: 'x' }],
    ] as const) {
      const error = failure(await ws.provider.execute(tool, args, context()));
      expect({ tool, code: error.code }).toEqual({ tool, code: 'INVALID_ARGUMENTS' });
      expect(error.message).toMatch(/too long/);
    }
    // The file is there: bash reaches it one cd at a time.
    const reached = okText(
      await ws.provider.execute(
        'bash',
        { command: `for i in 1 2 3; do cd -P ${step} || exit 1; done; cat f.txt` },
        context(),
      ),
    );
    expect(reached).toBe('deep\n[exit code 0]');
    // Cleaning up needs relative walks too: rm -rf handles depth itself.
    execFileSync('rm', ['-rf', 'd'], { cwd: ws.dir });
  });

  it('glob says when directories lie deeper than PATH_MAX, instead of a silent "No files match"', {
    timeout: 30_000,
  }, async () => {
    const step = 'e/'.repeat(800);
    const made = okText(
      await ws.provider.execute(
        'bash',
        {
          command: `for i in 1 2 3; do mkdir -p ${step} && cd -P ${step} || exit 1; done; echo deep > deep.log`,
        },
        context(),
      ),
    );
    expect(made).toBe('[exit code 0]');
    try {
      const text = okText(await ws.provider.execute('glob', { pattern: '**/*.log' }, context()));
      expect(text).toMatch(/^No files match/);
      expect(text).toMatch(/deeper than the system's path limit .*bash/);
      expect(text).not.toContain(ws.dir);
      // A shallow match is still listed, with the same note.
      await ws.provider.execute('write', { path: 'top.log', content: 'x' }, context());
      const both = okText(await ws.provider.execute('glob', { pattern: '**/*.log' }, context()));
      expect(both).toMatch(/^top\.log/);
      expect(both).toMatch(/deeper than the system's path limit/);
    } finally {
      execFileSync('rm', ['-rf', 'e', 'top.log'], { cwd: ws.dir });
    }
  });
});
