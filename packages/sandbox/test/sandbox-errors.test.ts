import { createHostExecutor } from '@toolplane/builtin-fs-shell';
import { ToolError } from '@toolplane/core';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createBwrapExecutor,
  createDockerExecutor,
  createSandboxExecutor,
  isSandboxUnavailable,
  sandboxFailureCode,
  withHostFallback,
} from '../src/index.js';
import { bwrapSetupError } from '../src/bwrap/bwrap-process.js';
import { allowedSkip, dockerProblem, makeWorkspace } from './helpers/engines.js';

const workspace = makeWorkspace();
const unreachable = () => new Docker({ socketPath: `/tmp/toolplane-no-engine-${process.pid}.sock` });
const dockerSkip = allowedSkip(await dockerProblem());

describe('sandbox errors', () => {
  afterAll(() => workspace.remove());

  it('fails a command with SANDBOX_ENGINE_UNREACHABLE when no engine answers, naming how to start one', async () => {
    const executor = createDockerExecutor({ workspace: workspace.path, docker: unreachable() });
    const error = await executor
      .start({ command: 'true', cwd: workspace.path, env: {} })
      .done.catch((e: unknown) => e);
    expect(ToolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
      details: { sandboxCode: 'SANDBOX_ENGINE_UNREACHABLE' },
    });
    expect((error as Error).message).toContain('dockerd');
    expect(isSandboxUnavailable(error)).toBe(true);
    await executor.close();
  });

  it.skipIf(dockerSkip !== undefined)(
    'fails with SANDBOX_IMAGE_MISSING and the command that gets the image',
    async () => {
      const executor = createDockerExecutor({
        workspace: workspace.path,
        image: 'toolplane-sandbox:not-built',
      });
      const error = await executor
        .start({ command: 'true', cwd: workspace.path, env: {} })
        .done.catch((e: unknown) => e);
      expect(sandboxFailureCode(error)).toBe('SANDBOX_IMAGE_MISSING');
      expect((error as Error).message).toContain('docker pull toolplane-sandbox:not-built');
      await executor.close();
    },
  );

  it('names the build script for the default image when it is missing', async () => {
    const { engineError } = await import('../src/docker/engine-errors.js');
    const error = engineError(
      { statusCode: 404, json: { message: 'No such image: toolplane-sandbox:busybox' } },
      'creating',
      'toolplane-sandbox:busybox',
    );
    expect(sandboxFailureCode(error)).toBe('SANDBOX_IMAGE_MISSING');
    expect(error.message).toContain('bash tooling/ci/sandbox-engines.sh');
  });

  it('refuses a cwd outside the workspace with SANDBOX_CWD_OUTSIDE_WORKSPACE', async () => {
    for (const executor of [
      createDockerExecutor({ workspace: workspace.path, docker: unreachable() }),
      createBwrapExecutor({ workspace: workspace.path }),
    ]) {
      const error = await executor
        .start({ command: 'true', cwd: '/etc', env: {} })
        .done.catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 'INVALID_ARGUMENTS',
        details: { sandboxCode: 'SANDBOX_CWD_OUTSIDE_WORKSPACE' },
      });
      await executor.close?.();
    }
  });

  it('fails with SANDBOX_BWRAP_MISSING when bubblewrap is not where it was said to be', async () => {
    const executor = createBwrapExecutor({ workspace: workspace.path, bwrapPath: '/nonexistent/bwrap' });
    const error = await executor
      .start({ command: 'true', cwd: workspace.path, env: {} })
      .done.catch((e: unknown) => e);
    expect(sandboxFailureCode(error)).toBe('SANDBOX_BWRAP_MISSING');
    expect((error as Error).message).toContain('/nonexistent/bwrap');
  });

  it('reads a namespace failure of bubblewrap as SANDBOX_NAMESPACES_DENIED with what to change', () => {
    const error = bwrapSetupError(
      'bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.\n',
      1,
    );
    expect(sandboxFailureCode(error)).toBe('SANDBOX_NAMESPACES_DENIED');
    expect(error.message).toContain('unprivileged_userns_clone');
    expect(error.message).toContain('AppArmor');
    const uidMap = bwrapSetupError('bwrap: setting up uid map: Permission denied\n', 1);
    expect(sandboxFailureCode(uidMap)).toBe('SANDBOX_NAMESPACES_DENIED');
  });

  it('runs on the host when the sandbox is unavailable and fallback is on, saying so in every result', async () => {
    const executor = withHostFallback(
      createDockerExecutor({ workspace: workspace.path, docker: unreachable() }),
      createHostExecutor(),
    );
    for (const command of ['echo one', 'echo two >&2; exit 4']) {
      const result = await executor.start({
        command,
        cwd: workspace.path,
        env: { PATH: process.env['PATH'] ?? '' },
      }).done;
      expect(result.stderr.trimEnd().split('\n').at(-1)).toContain('ran on the host, unconfined');
      expect(result.notes?.[0]).toContain('SANDBOX_ENGINE_UNREACHABLE');
    }
    await executor.close?.();
  });

  it('does not fall back for a failure that is not unavailability', async () => {
    const executor = withHostFallback(
      createDockerExecutor({ workspace: workspace.path, docker: unreachable() }),
      createHostExecutor(),
    );
    const error = await executor
      .start({ command: 'true', cwd: '/etc', env: {} })
      .done.catch((e: unknown) => e);
    expect(sandboxFailureCode(error)).toBe('SANDBOX_CWD_OUTSIDE_WORKSPACE');
    await executor.close?.();
  });

  it('fails closed by default: a configured sandbox that cannot run fails the command', async () => {
    const executor = createSandboxExecutor({ kind: 'bwrap', workspace: workspace.path, fallback: 'fail' });
    expect(executor.kind).toBe('bwrap');
    expect(() =>
      createSandboxExecutor({ kind: 'docker', workspace: workspace.path, fallback: 'host' }),
    ).toThrow(/host executor/);
    await executor.close?.();
  });
});
