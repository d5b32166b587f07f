import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBwrapExecutor } from '../../src/index.js';
import { allowedSkip, bwrapProblem, makeWorkspace } from '../helpers/engines.js';

const skip = allowedSkip(bwrapProblem());

let workspace: { path: string; remove: () => void };
let scratch: string;
beforeEach(() => {
  workspace = makeWorkspace();
  scratch = mkdtempSync(join(tmpdir(), 'toolplane-bwrap-wrapper-'));
  chmodSync(scratch, 0o777);
});
afterEach(() => {
  workspace.remove();
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * A bwrap that, on its first `times` runs, removes the workspace's `.mcp.json` just before the
 * real bwrap mounts it (what another process does when the placeholder found here was its own
 * and its sandbox ended), and puts it back after a failed run, for the next lookup to find.
 */
function vanishingBwrap(times: number): { path: string; runs: () => number } {
  const path = join(scratch, 'bwrap');
  const count = join(scratch, 'runs');
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      `echo run >> ${count}`,
      `if [ "$(wc -l < ${count})" -gt ${times} ]; then exec bwrap "$@"; fi`,
      `rmdir ${join(workspace.path, '.mcp.json')}`,
      'bwrap "$@"; status=$?',
      `mkdir -m 555 ${join(workspace.path, '.mcp.json')}`,
      'exit $status',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return {
    path,
    runs: () => (existsSync(count) ? lstatSync(count).size / 'run\n'.length : 0),
  };
}

/** Another process's placeholder for the absent `.mcp.json`: an empty, read-only directory. */
function foreignPlaceholder(): void {
  mkdirSync(join(workspace.path, '.mcp.json'), { mode: 0o555 });
}

describe.skipIf(skip !== undefined)(
  'a bwrap protected path removed by another process before the jail mounts it',
  () => {
    it('is looked up again: the command runs in a second jail, with the path still protected', async () => {
      foreignPlaceholder();
      const bwrap = vanishingBwrap(1);
      const executor = createBwrapExecutor({ workspace: workspace.path, bwrapPath: bwrap.path });
      try {
        const result = await executor.start({
          command: 'echo ran; (echo x > .mcp.json) 2>/dev/null || echo refused; ls -a',
          cwd: workspace.path,
          env: {},
        }).done;
        expect(result.stdout).toContain('ran');
        expect(result.stdout).toContain('refused');
        expect(bwrap.runs()).toBe(2);
        // the second jail mounted this process's own placeholder, removed once the jail was gone
        expect(existsSync(join(workspace.path, '.git'))).toBe(false);
      } finally {
        await executor.close();
      }
    });

    it('fails with the setup error after three jails when the path vanishes every time', async () => {
      foreignPlaceholder();
      const bwrap = vanishingBwrap(3);
      const executor = createBwrapExecutor({ workspace: workspace.path, bwrapPath: bwrap.path });
      try {
        // each run removes a .git the test puts back first: found, mounted, gone again
        const remake = setInterval(() => {
          if (!existsSync(join(workspace.path, '.git'))) foreignPlaceholder();
        }, 1);
        const outcome = await executor
          .start({ command: 'echo ran', cwd: workspace.path, env: {} })
          .done.then(
            () => 'ran',
            (error: { details?: { sandboxCode?: string }; message?: string }) =>
              `${error.details?.sandboxCode}: ${error.message}`,
          )
          .finally(() => clearInterval(remake));
        expect(outcome).toMatch(/^SANDBOX_START_FAILED: .*Can't find source path/);
        expect(bwrap.runs()).toBe(3);
      } finally {
        await executor.close();
      }
    });
  },
);
