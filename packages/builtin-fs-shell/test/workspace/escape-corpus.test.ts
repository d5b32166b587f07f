import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, makeTempDir } from '../helpers/index.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

// Layout: <base>/app is the workspace, <base>/app-evil a sibling whose name starts with the
// workspace's, <base>/outside another directory, <base>/shared an extra root.
let base: string;
let cleanup: () => Promise<void>;
let workspace: string;
let provider: BuiltinProvider;
const SECRET = `outside-secret-${Math.random().toString(36).slice(2)}`;

async function snapshot(dir: string): Promise<string> {
  const entries: string[] = [];
  const walk = async (path: string): Promise<void> => {
    for (const entry of await readdir(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) await walk(full);
      else entries.push(`${full}=${entry.isFile() ? await readFile(full, 'utf8') : 'link'}`);
    }
  };
  await walk(dir);
  return entries.sort().join('\n');
}

beforeAll(async () => {
  ({ dir: base, cleanup } = await makeTempDir('tp-escape-'));
  workspace = join(base, 'app');
  for (const dir of ['app/sub/deep', 'app/nested/deeper', 'app-evil', 'outside', 'shared', 'shared-evil']) {
    await mkdir(join(base, dir), { recursive: true });
  }
  for (const dir of ['app-evil', 'outside', 'shared-evil'])
    await writeFile(join(base, dir, 'secret.txt'), SECRET);
  await writeFile(join(workspace, 'inside.txt'), 'inside\n');
  await symlink(join(base, 'outside'), join(workspace, 'link-out'));
  await symlink(join(base, 'outside', 'secret.txt'), join(workspace, 'link-file'));
  await symlink('/proc/self/root', join(workspace, 'link-proc'));
  await symlink(join(base, 'outside', 'not-yet.txt'), join(workspace, 'dangling'));
  await symlink('../../../outside', join(workspace, 'nested', 'deeper', 'link'));
  await symlink('/etc', join(workspace, 'link-etc'));
  await symlink('../app-evil', join(workspace, 'relative-escape'));
  await symlink(join(base, 'outside'), join(workspace, 'chain2'));
  await symlink('chain2', join(workspace, 'chain1'));
  await symlink('..', join(workspace, 'up'));
  await symlink('/proc/self/cwd', join(workspace, 'link-cwd'));
  provider = createBuiltinProvider({ workspace, extraRoots: [join(base, 'shared')] });
});

afterAll(async () => {
  await provider?.close?.();
  await cleanup();
});

// Each entry is a path a model might pass; none may read or change anything outside.
const corpus = (): Array<[string, string]> => [
  ['parent traversal', '../app-evil/secret.txt'],
  ['deep parent traversal', '../../../../../../etc/passwd'],
  ['absolute system path', '/etc/passwd'],
  ['absolute sibling with the workspace as prefix', join(base, 'app-evil', 'secret.txt')],
  ['workspace path plus suffix', `${workspace}-evil/secret.txt`],
  ['absolute workspace then ..', `${workspace}/../app-evil/secret.txt`],
  ['subdirectory then ..', 'sub/../../app-evil/secret.txt'],
  ['dot then ..', './../app-evil/secret.txt'],
  ['many .. after a subdirectory', 'sub/deep/../../../../../../etc/passwd'],
  ['bare ..', '..'],
  ['.. with slash', '../'],
  ['filesystem root', '/'],
  ['double slash root', '//etc/passwd'],
  ['root then ..', '/../etc/passwd'],
  ['/tmp', '/tmp'],
  ['symlinked directory', 'link-out/secret.txt'],
  ['symlinked directory with dot', 'link-out/./secret.txt'],
  ['symlinked file', 'link-file'],
  ['symlink to /proc/self/root', 'link-proc/etc/passwd'],
  ['/proc/self/root', '/proc/self/root/etc/passwd'],
  ['/proc/self/cwd', '/proc/self/cwd/package.json'],
  ['/proc/self/fd', '/proc/self/fd/0'],
  ['symlink to /proc/self/cwd', 'link-cwd/package.json'],
  ['new file under a symlinked parent', 'link-out/new-file.txt'],
  ['new nested file under a symlinked parent', 'link-out/newdir/new.txt'],
  ['dangling symlink to outside', 'dangling'],
  ['relative symlink deep inside', 'nested/deeper/link/secret.txt'],
  ['symlink to /etc', 'link-etc/passwd'],
  ['relative symlink to the sibling', 'relative-escape/secret.txt'],
  ['symlink chain', 'chain1/secret.txt'],
  ['symlink to the parent', 'up/app-evil/secret.txt'],
  ['symlink to the parent then new file', 'up/outside/created.txt'],
  ['null byte', 'inside.txt\0../../etc/passwd'],
  ['null byte extension trick', 'secret.txt\0.png'],
  ['fullwidth solidus', '..\uff0fapp-evil\uff0fsecret.txt'],
  ['fullwidth full stops', '\uff0e\uff0e/app-evil/secret.txt'],
  ['one-dot leaders', '\u2024\u2024/app-evil/secret.txt'],
  ['right-to-left override', '\u202etxt.terces/live-ppa/..'],
  ['zero-width joiner', '.\u200d./app-evil/secret.txt'],
  ['byte-order mark', '\ufeff../app-evil/secret.txt'],
  ['division slash', '..\u2215app-evil\u2215secret.txt'],
  ['backslash traversal', '..\\app-evil\\secret.txt'],
  ['home expansion', '~/.bashrc'],
  ['other home expansion', '~root/.ssh/id_rsa'],
  ['extra root sibling prefix', join(base, 'shared-evil', 'secret.txt')],
  ['extra root then ..', `${join(base, 'shared')}/../outside/secret.txt`],
  ['newline in path', '../app-evil/secret.txt\n'],
  ['empty path', ''],
];

describe('path-escape corpus', () => {
  it('has at least 40 attempts', () => {
    expect(corpus().length).toBeGreaterThanOrEqual(40);
  });

  it.each(['read', 'write', 'list', 'edit'] as const)('refuses every attempt through %s', async (tool) => {
    const before = await snapshot(base);
    const outcomes: string[] = [];
    for (const [name, path] of corpus()) {
      const args: Record<string, unknown> =
        tool === 'write'
          ? { path, content: 'pwned' }
          : tool === 'edit'
            ? { path, old_string: SECRET, new_string: 'pwned' }
            : { path };
      const result = await provider.execute(tool, args, context(`escape-${tool}`));
      const text = JSON.stringify(result);
      if (result.ok || text.includes(SECRET)) outcomes.push(`${name} (${JSON.stringify(path)}) succeeded`);
      else if (!['DENIED', 'INVALID_ARGUMENTS'].includes(result.error.code)) {
        outcomes.push(`${name}: unexpected code ${result.error.code}: ${result.error.message}`);
      }
    }
    expect(outcomes).toEqual([]);
    // Nothing outside the workspace changed (the workspace itself is part of the snapshot,
    // so a write that landed inside under a strange name would show too).
    expect(await snapshot(base)).toBe(before);
  });

  it('still allows ordinary paths inside the workspace and the extra root', async () => {
    const ctx = context('escape-ok');
    expect((await provider.execute('read', { path: 'inside.txt' }, ctx)).ok).toBe(true);
    expect((await provider.execute('read', { path: join(workspace, 'inside.txt') }, ctx)).ok).toBe(true);
    expect((await provider.execute('read', { path: 'sub/../inside.txt' }, ctx)).ok).toBe(true);
    expect(
      (await provider.execute('read', { path: join(base, 'shared-evil', '..', 'app', 'inside.txt') }, ctx))
        .ok,
    ).toBe(true);
    const extra = await provider.execute(
      'write',
      { path: join(base, 'shared', 'note.txt'), content: 'ok' },
      ctx,
    );
    expect(extra.ok).toBe(true);
  });
});
