import { errorMessage } from '@toolplane/core';
import type { SandboxSection } from '../config/sandbox-schema.js';
import { createConfiguredSandbox } from './create-executor.js';

/** One line of doctor's sandbox report. */
export interface SandboxCheck {
  /** `engine`, `image`, `bwrap`, `namespaces`, `command`. */
  readonly check: string;
  readonly ok: boolean;
  readonly detail: string;
  /** The sandbox's failure code (`SANDBOX_IMAGE_MISSING`...), for a failed check. */
  readonly code?: string;
  /** What to do about a failed check. */
  readonly hint?: string;
}

/** What doctor reports of the `sandbox:` section. */
export interface SandboxReport {
  readonly kind: SandboxSection['kind'];
  readonly ok: boolean;
  readonly checks: readonly SandboxCheck[];
}

const PROBE_TIMEOUT_MS = 60_000;

/** The checks of each kind, in order: a failure at one leaves the later ones unchecked. */
const STEPS = {
  docker: [
    { check: 'engine', failsWith: 'SANDBOX_ENGINE_UNREACHABLE', passed: 'the Docker engine answers' },
    { check: 'image', failsWith: 'SANDBOX_IMAGE_MISSING', passed: 'the image is on the engine' },
  ],
  bwrap: [
    { check: 'bwrap', failsWith: 'SANDBOX_BWRAP_MISSING', passed: 'bwrap runs' },
    { check: 'namespaces', failsWith: 'SANDBOX_NAMESPACES_DENIED', passed: 'bwrap creates its namespaces' },
  ],
} as const;

function hintFor(code: string | undefined, section: SandboxSection): string | undefined {
  switch (code) {
    case 'SANDBOX_ENGINE_UNREACHABLE':
      return 'start the engine (`systemctl start docker`, or `bash tooling/ci/sandbox-engines.sh` in the toolplane repository) or point DOCKER_HOST at it';
    case 'SANDBOX_IMAGE_MISSING':
      return section.image === undefined || section.image === 'toolplane-sandbox:busybox'
        ? 'build it: `bash tooling/ci/sandbox-engines.sh` in the toolplane repository, or `docker import` a busybox-static rootfs (see @toolplane/sandbox README)'
        : `pull or build ${section.image} (\`docker pull ${section.image}\`), or remove sandbox.image to use toolplane-sandbox:busybox (built by \`bash tooling/ci/sandbox-engines.sh\`)`;
    case 'SANDBOX_BWRAP_MISSING':
      return 'install bubblewrap (`apt-get install bubblewrap`) or set sandbox.bwrapPath';
    case 'SANDBOX_NAMESPACES_DENIED':
      return 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0; on Ubuntu 24.04+ an AppArmor profile for bwrap), or use kind: docker';
    case 'SANDBOX_WORKSPACE_INVALID':
      return 'builtin.workspace must be a directory';
    default:
      return undefined;
  }
}

/**
 * Runs `true` in the configured sandbox (never through the host fallback) and reports, check
 * by check, how far it got: the engine and the image for docker, bwrap and its namespaces for
 * bubblewrap, then the command itself. A failure names the sandbox's code and what to do.
 */
export async function checkSandbox(section: SandboxSection, workspace: string): Promise<SandboxReport> {
  if (section.kind === 'host')
    return {
      kind: 'host',
      ok: true,
      checks: [{ check: 'kind', ok: true, detail: 'host: shell commands run on the host, unconfined' }],
    };
  const { sandboxFailureCode } = await import('@toolplane/sandbox');
  const sandbox = await createConfiguredSandbox(
    { ...section, kind: section.kind, fallback: 'fail' },
    workspace,
  );
  const key = `doctor-${process.pid}`;
  let failure: unknown;
  let exitCode: number | null = null;
  try {
    const result = await sandbox.executor.start({
      command: 'true',
      cwd: workspace,
      env: {},
      sandboxKey: key,
      timeoutMs: PROBE_TIMEOUT_MS,
    }).done;
    exitCode = result.exitCode;
  } catch (error) {
    failure = error;
  } finally {
    await sandbox.executor.release?.(key).catch(() => undefined);
    await sandbox.close().catch(() => undefined);
  }
  const code = failure === undefined ? undefined : (sandboxFailureCode(failure) ?? 'SANDBOX_START_FAILED');
  const checks: SandboxCheck[] = [];
  const failed = (check: string): SandboxCheck => {
    const hint = hintFor(code, section);
    return {
      check,
      ok: false,
      detail: errorMessage(failure),
      ...(code ? { code } : {}),
      ...(hint ? { hint } : {}),
    };
  };
  for (const step of STEPS[section.kind]) {
    if (code === step.failsWith) {
      checks.push(failed(step.check));
      return { kind: section.kind, ok: false, checks };
    }
    checks.push({ check: step.check, ok: true, detail: step.passed });
  }
  if (failure !== undefined) checks.push(failed('command'));
  else if (exitCode !== 0)
    checks.push({
      check: 'command',
      ok: false,
      detail: `\`true\` exited with ${exitCode} in the sandbox`,
      code: 'SANDBOX_START_FAILED',
      hint: 'the image needs /bin/sh and the usual tools (busybox)',
    });
  else checks.push({ check: 'command', ok: true, detail: `\`true\` ran in the ${section.kind} sandbox` });
  const ok = checks.every((check) => check.ok);
  if (section.fallback === 'host' && !ok)
    checks.push({
      check: 'fallback',
      ok: true,
      detail: 'fallback: host: until this is fixed, shell commands run on the host, unconfined',
    });
  return { kind: section.kind, ok, checks };
}
