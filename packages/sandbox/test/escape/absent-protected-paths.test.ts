import { chownSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Executor } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROTECTED_PATHS, createBwrapExecutor, createDockerExecutor } from '../../src/index.js';
import { allowedSkip, bwrapProblem, dockerProblem, makeWorkspace } from '../helpers/engines.js';

const subjects: { name: string; skip: string | undefined; create: (workspace: string) => Executor }[] = [
  {
    name: 'bwrap',
    skip: allowedSkip(bwrapProblem()),
    create: (workspace) => createBwrapExecutor({ workspace }),
  },
  {
    name: 'docker',
    skip: allowedSkip(await dockerProblem()),
    create: (workspace) => createDockerExecutor({ workspace, removeLeftovers: false }),
  },
];

/** Ways a command could bring an absent protected path into being. */
const ATTEMPTS: readonly { readonly how: string; readonly command: (path: string) => string }[] = [
  { how: 'as a file', command: (path) => `mkdir -p "$(dirname ${path})"; echo x > ${path}` },
  { how: 'as a directory', command: (path) => `mkdir -p ${path} && echo x > ${path}/probe` },
  {
    how: 'by a rename',
    command: (path) => `mkdir -p "$(dirname ${path})"; echo x > /tmp/p; mv /tmp/p ${path}`,
  },
  { how: 'as a symbolic link', command: (path) => `mkdir -p "$(dirname ${path})"; ln -s /tmp ${path}` },
];

/** Workspace layouts before the sandbox starts: nothing, and a git directory without hooks or config. */
const LAYOUTS: readonly { readonly name: string; readonly make: (workspace: string) => void }[] = [
  { name: 'an empty workspace', make: () => undefined },
  {
    name: 'a .git without hooks or config',
    make: (workspace) => {
      mkdirSync(join(workspace, '.git/objects'), { recursive: true });
      writeFileSync(join(workspace, '.git/HEAD'), 'ref: refs/heads/main\n');
      // Writable by the sandbox's user, as a repository it cloned would be.
      if (process.getuid?.() === 0) {
        for (const path of ['.git', '.git/objects', '.git/HEAD'])
          chownSync(join(workspace, path), 65534, 65534);
      }
    },
  },
];

const PATHS = [...DEFAULT_PROTECTED_PATHS, '.git/hooks/pre-commit', '.toolplane/config.json'];

/** What a command made at `relative`: a path with content or a link (an empty directory is a placeholder). */
function made(workspace: string, relative: string): boolean {
  try {
    const info = lstatSync(join(workspace, relative));
    if (info.isSymbolicLink() || info.isFile()) return true;
    return readdirSync(join(workspace, relative)).length > 0;
  } catch {
    return false;
  }
}

for (const subject of subjects) {
  for (const layout of LAYOUTS) {
    describe.skipIf(subject.skip !== undefined)(`${subject.name} sandbox, ${layout.name}`, () => {
      const workspace = makeWorkspace();
      let executor: Executor;
      let before: string[];
      beforeAll(() => {
        layout.make(workspace.path);
        before = readdirSync(workspace.path).sort();
        executor = subject.create(workspace.path);
      });
      afterAll(() => workspace.remove());

      // Each attempt in its own subshell: any one that gets through is caught.
      it.each(PATHS)('cannot create %s as a file, a directory, by a rename or as a link', async (path) => {
        const result = await executor.start({
          command: ATTEMPTS.map((attempt) => `(${attempt.command(path)}) 2>&1`).join('; '),
          cwd: workspace.path,
          env: {},
          timeoutMs: 10_000,
          sandboxKey: 'absent',
        }).done;
        expect(made(workspace.path, path), `${result.stdout}\n${result.stderr}`).toBe(false);
      });

      it('leaves the workspace as it found it once the sandbox is gone', async () => {
        await executor.release?.('absent');
        await executor.close?.();
        expect(readdirSync(workspace.path).sort()).toEqual(before);
        if (layout.name !== 'an empty workspace') {
          expect(readdirSync(join(workspace.path, '.git')).sort()).toEqual(['HEAD', 'objects']);
        }
      });
    });
  }
}
