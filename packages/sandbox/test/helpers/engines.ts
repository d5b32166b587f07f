import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';

/** The image the tests use (TEST_IMAGE; not imported, so global setup needs no source). */
const TEST_IMAGE = 'toolplane-sandbox:busybox';

/** Why the Docker engine or the test image cannot be used, or undefined when both can. */
export async function dockerProblem(): Promise<string | undefined> {
  const docker = new Docker();
  try {
    await docker.ping();
  } catch (error) {
    return `no Docker engine answers at ${process.env['DOCKER_HOST'] ?? '/var/run/docker.sock'} (${(error as Error).message}); run bash tooling/ci/sandbox-engines.sh`;
  }
  try {
    await docker.getImage(TEST_IMAGE).inspect();
  } catch {
    return `the image ${TEST_IMAGE} is missing; run bash tooling/ci/sandbox-engines.sh`;
  }
  return undefined;
}

/** Why bubblewrap cannot run a jail here, or undefined when it can (as the executor runs it). */
export function bwrapProblem(): string | undefined {
  const jail = [
    'bwrap',
    '--ro-bind',
    '/usr',
    '/usr',
    '--symlink',
    'usr/bin',
    '/bin',
    '--symlink',
    'usr/lib',
    '/lib',
  ];
  jail.push('--symlink', 'usr/lib64', '/lib64', '--unshare-all', '--', '/usr/bin/true');
  const argv =
    process.getuid?.() === 0
      ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', ...jail]
      : jail;
  try {
    execFileSync(argv[0] as string, argv.slice(1), { stdio: 'pipe', timeout: 10_000 });
    return undefined;
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '').trim();
    return `bwrap cannot run a jail here: ${stderr || (error as Error).message.split('\n')[0]}`;
  }
}

/**
 * The reason to skip, after checking that skipping is allowed: with CI=true a missing engine
 * fails the run instead, since .ci/run starts the engines.
 */
export function allowedSkip(problem: string | undefined): string | undefined {
  if (problem !== undefined && process.env['CI'] === 'true') {
    throw new Error(`CI=true and the sandbox engine is not usable: ${problem}`);
  }
  if (problem !== undefined) console.warn(`skipping: ${problem}`);
  return problem;
}

/** A temporary workspace writable by the sandboxes' user (nobody, 65534). */
export function makeWorkspace(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'toolplane-sandbox-'));
  chmodSync(path, 0o755);
  if (process.getuid?.() === 0) chownSync(path, 65534, 65534);
  else chmodSync(path, 0o777);
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
