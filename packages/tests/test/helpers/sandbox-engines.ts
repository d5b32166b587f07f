import { chmodSync, chownSync } from 'node:fs';
import type { Executor } from '@toolplane/core';
import { sandboxFailureCode } from '@toolplane/sandbox';
import { inCI, makeTempDir } from './session.js';

/**
 * Why `executor` cannot run a command here (no engine, no image, no namespaces), or undefined
 * when it can. With CI=true a sandbox that cannot run throws instead: the engines are started
 * there, so a skip would hide a failure.
 */
export async function sandboxProblem(
  name: string,
  create: (workspace: string) => Executor,
): Promise<string | undefined> {
  const { dir, cleanup } = await sandboxWorkspace();
  const executor = create(dir);
  let problem: string | undefined;
  try {
    await executor.start({ command: 'true', cwd: dir, env: {}, sandboxKey: 'probe' }).done;
  } catch (error) {
    problem = `the ${name} sandbox cannot run a command here (${sandboxFailureCode(error) ?? 'error'}: ${(error as Error).message}); run bash tooling/ci/sandbox-engines.sh`;
  } finally {
    await executor.close?.();
    await cleanup();
  }
  if (problem !== undefined && inCI) throw new Error(`CI=true and ${problem}`);
  if (problem !== undefined) console.warn(`skipping: ${problem}`);
  return problem;
}

/** A temporary workspace the sandboxes' user (nobody, 65534) can write. */
export async function sandboxWorkspace(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const made = await makeTempDir('tp-sandboxed-');
  chmodSync(made.dir, 0o755);
  if (process.getuid?.() === 0) chownSync(made.dir, 65534, 65534);
  else chmodSync(made.dir, 0o777);
  return made;
}
