// A `.gitignore` that is a FIFO would block grep's Node engine (a synchronous read that never
// returns stops the whole process) and glob's `respect_gitignore` (a read that never settles).
// Ignore files are read only when they are regular files, and without waiting.
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, inCI, makeTempDir, okText } from '../helpers/index.js';
import { findRipgrep } from '../../src/grep/find-ripgrep.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

const ripgrep = findRipgrep();
if (!ripgrep && inCI) throw new Error('ripgrep (rg) must be on PATH in CI: apt-get install ripgrep');

describe('ignore files that are not regular files', () => {
  let dir: string;
  let workspace: string;
  let cleanup: () => Promise<void>;
  let node: BuiltinProvider;
  const ctx = context('ignore-kinds');

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-ignore-kinds-'));
    workspace = join(dir, 'ws');
    await mkdir(join(workspace, 'fifo'), { recursive: true });
    await mkdir(join(workspace, 'linked'));
    await writeFile(join(workspace, 'fifo', 'a.txt'), 'needle in fifo\n');
    await writeFile(join(workspace, 'fifo', 'b.log'), 'needle in log\n');
    execFileSync('mkfifo', [join(workspace, 'fifo', '.gitignore')]);
    execFileSync('mkfifo', [join(workspace, 'fifo', '.rgignore')]);
    // A link to a regular file (outside the workspace): read, as ripgrep reads it.
    await writeFile(join(dir, 'outside-rules'), '*.log\n');
    await symlink(join(dir, 'outside-rules'), join(workspace, 'linked', '.gitignore'));
    await writeFile(join(workspace, 'linked', 'c.txt'), 'needle linked\n');
    await writeFile(join(workspace, 'linked', 'd.log'), 'needle hidden by the linked rules\n');
    // A link to a device: passed over.
    await mkdir(join(workspace, 'device'));
    await symlink('/dev/zero', join(workspace, 'device', '.gitignore'));
    await writeFile(join(workspace, 'device', 'e.txt'), 'needle by a device\n');
    node = createBuiltinProvider({ workspace, tools: ['grep', 'glob'], grep: { ripgrep: false } });
  });
  afterAll(async () => {
    await node.close?.();
    await cleanup();
  });

  /** What both tools list: every file but the one the linked rules leave out. */
  const expectListed = (text: string) => {
    expect(text.split('\n').slice(0, 4)).toEqual([
      'device/e.txt',
      'fifo/a.txt',
      'fifo/b.log',
      'linked/c.txt',
    ]);
    expect(text).not.toContain('d.log');
  };

  it('grep through the Node engine searches past a FIFO or device named .gitignore', async () => {
    expectListed(
      okText(await node.execute('grep', { pattern: 'needle', output_mode: 'files_with_matches' }, ctx)),
    );
  });

  it('glob with respect_gitignore lists past them too', async () => {
    expectListed(
      okText(await node.execute('glob', { pattern: '**/*.*', respect_gitignore: true, sort: 'name' }, ctx)),
    );
  });

  it.skipIf(!ripgrep)('agrees with ripgrep on the linked rules', async () => {
    const rg = createBuiltinProvider({ workspace: join(workspace, 'linked'), tools: ['grep'] });
    const viaNode = createBuiltinProvider({
      workspace: join(workspace, 'linked'),
      tools: ['grep'],
      grep: { ripgrep: false },
    });
    try {
      const args = { pattern: 'needle', output_mode: 'files_with_matches' };
      const expected = okText(await rg.execute('grep', args, ctx));
      expect(expected).toContain('c.txt');
      expect(expected).not.toContain('d.log');
      expect(okText(await viaNode.execute('grep', args, ctx))).toBe(expected);
    } finally {
      await rg.close?.();
      await viaNode.close?.();
    }
  });
});

describe.skipIf(!ripgrep)('ripgrep and a FIFO named .gitignore', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const ctx = context('ignore-kinds-fifo');

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-ignore-fifo-'));
    await mkdir(join(dir, 'deep', 'er'), { recursive: true });
    await writeFile(join(dir, 'a.txt'), 'needle at the top\n');
    await writeFile(join(dir, 'deep', 'er', 'b.txt'), 'needle below the FIFO\n');
    await writeFile(join(dir, 'deep', 'er', 'c.log'), 'no match here\n');
    // ripgrep opens each .gitignore it meets with a blocking open: with no writer it would wait
    // there until the call's deadline.
    execFileSync('mkfifo', [join(dir, 'deep', '.gitignore')]);
  });
  afterAll(async () => {
    await cleanup();
  });

  it('is noticed, and the Node engine answers what ripgrep would have', async () => {
    const rg = createBuiltinProvider({ workspace: dir, tools: ['grep'] });
    const viaNode = createBuiltinProvider({ workspace: dir, tools: ['grep'], grep: { ripgrep: false } });
    try {
      const args = { pattern: 'needle', output_mode: 'content' };
      // Bounded, so a run that still waits on the FIFO fails here instead of hanging the suite.
      const result = await rg.execute('grep', args, context('fifo', { signal: AbortSignal.timeout(60_000) }));
      const text = okText(result);
      expect(result.ok && result.structured).toMatchObject({ engine: 'node', files: 2, matches: 2 });
      expect(text).toContain('ripgrep waited to open a FIFO in the tree, likely one named .gitignore');
      const expected = okText(await viaNode.execute('grep', args, ctx));
      expect(text.replace(/; ripgrep waited to open a FIFO[^)]*/, '')).toBe(expected);
      expect(expected).toMatch(/^a\.txt\n1:needle at the top\n\ndeep\/er\/b\.txt\n1:needle below the FIFO\n/);
    } finally {
      await rg.close?.();
      await viaNode.close?.();
    }
  });

  it('says so when nothing matches', async () => {
    const rg = createBuiltinProvider({ workspace: dir, tools: ['grep'] });
    try {
      const text = okText(await rg.execute('grep', { pattern: 'absent' }, ctx));
      expect(text).toMatch(/^No matches for \/absent\/ in \. \(ripgrep waited to open a FIFO/);
    } finally {
      await rg.close?.();
    }
  });
});

describe.skipIf(!ripgrep)('ripgrep and an ignore file that never ends', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const ctx = context('ignore-kinds-rg');

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-ignore-zero-'));
    await writeFile(join(dir, 'a.txt'), 'needle\n');
    // ripgrep reads ignore files whole: without a memory allowance this one grows it by ~500 MB
    // a second until the call's deadline.
    await symlink('/dev/zero', join(dir, '.gitignore'));
  });
  afterAll(async () => {
    await cleanup();
  });

  it('stops ripgrep at its memory allowance with EXECUTION_FAILED that says why', async () => {
    const rg = createBuiltinProvider({
      workspace: dir,
      tools: ['grep'],
      grep: { ripgrepMemoryBytes: 128 * 1024 * 1024 },
    });
    try {
      const result = await rg.execute('grep', { pattern: 'needle' }, ctx);
      expect(result.ok ? 'ok' : result.error.code).toBe('EXECUTION_FAILED');
      const message = result.ok ? '' : result.error.message;
      expect(message).toContain('ran out of its memory allowance (128 MB, grep.ripgrepMemoryBytes)');
      expect(message).toContain('.gitignore linked to a device');
    } finally {
      await rg.close?.();
    }
  });

  it('the Node engine passes the device over and searches', async () => {
    const viaNode = createBuiltinProvider({ workspace: dir, tools: ['grep'], grep: { ripgrep: false } });
    try {
      expect(okText(await viaNode.execute('grep', { pattern: 'needle' }, ctx))).toContain('a.txt');
    } finally {
      await viaNode.close?.();
    }
  });

  it.each([0, 1.5, -1, Number.NaN, '1G'])('refuses ripgrepMemoryBytes %s with CONFIG_INVALID', (value) => {
    expect(() =>
      createBuiltinProvider({ workspace: dir, grep: { ripgrepMemoryBytes: value as number } }),
    ).toThrow(/CONFIG_INVALID|grep\.ripgrepMemoryBytes must be a whole number of at least 67108864/);
  });
});
