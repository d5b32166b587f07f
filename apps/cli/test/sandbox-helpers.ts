import { execFile } from 'node:child_process';
import { chown, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from './helpers.js';

const run = promisify(execFile);

/** The image `bash tooling/ci/sandbox-engines.sh` builds. */
export const SANDBOX_IMAGE = 'toolplane-sandbox:busybox';

/**
 * Why the Docker engine and its image cannot be used here, or undefined when they can. With
 * `CI=true` a test must fail instead of skipping on it.
 */
export async function dockerUnavailable(): Promise<string | undefined> {
  try {
    await run('docker', ['image', 'inspect', SANDBOX_IMAGE], { timeout: 20_000 });
    return undefined;
  } catch (error) {
    return `docker or the image ${SANDBOX_IMAGE} is not available (${(error as Error).message.split('\n')[0]}): run bash tooling/ci/sandbox-engines.sh`;
  }
}

/** Why bubblewrap cannot run a jail here, or undefined when it can. */
export async function bwrapUnavailable(): Promise<string | undefined> {
  try {
    await run('bwrap', ['--unshare-all', '--ro-bind', '/', '/', 'true'], { timeout: 20_000 });
    return undefined;
  } catch (error) {
    return `bwrap cannot create a jail here (${(error as Error).message.split('\n')[0]})`;
  }
}

/** True when a missing engine must fail the test rather than skip it. */
export const MUST_RUN: boolean = process.env['CI'] === 'true';

/**
 * A workspace owned by nobody (65534, the sandbox's user) holding `toolplane.config.yaml` with
 * the built-in bash tool and the given `sandbox:` section (YAML flow text).
 */
export async function sandboxWorkspace(
  sandbox: string,
  extra = '',
): Promise<{ path: string; cleanup(): Promise<void> }> {
  const dir = await tempDir('toolplane-cli-sandbox-');
  await writeFile(
    join(dir.path, 'toolplane.config.yaml'),
    `builtin: { workspace: ., tools: [bash, read, task_output] }\nsandbox: ${sandbox}\n${extra}`,
  );
  if (process.getuid?.() === 0) await chown(dir.path, 65534, 65534);
  return dir;
}

/** Containers of the sandbox whose owner label names this process id. */
export async function containersOf(pid: number): Promise<string[]> {
  const { stdout } = await run(
    'docker',
    ['ps', '-a', '--filter', 'label=dev.toolplane.sandbox', '--format', '{{.ID}} {{.Labels}}'],
    { timeout: 20_000 },
  );
  return stdout
    .split('\n')
    .filter((line) => new RegExp(`dev\\.toolplane\\.sandbox\\.owner=[^,]*:${pid}(:|,|$)`).test(line))
    .map((line) => line.split(' ')[0] ?? '');
}
