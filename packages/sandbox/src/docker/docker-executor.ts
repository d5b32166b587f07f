import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ExecProcess, ExecRequest, Executor } from '@toolplane/core';
import Docker from 'dockerode';
import { SANDBOX_FIXED_ENV, sandboxEnvironment } from '../environment.js';
import { failedProcess } from '../failed-process.js';
import { type AllowListProxy, startAllowListProxy } from '../network/allow-list-proxy.js';
import type { NetworkAllowList } from '../network/allow-list-options.js';
import { proxyEnvironment, startNamespaceForwarder } from '../network/namespace-forwarder.js';
import { sandboxError } from '../errors.js';
import { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_SANDBOX_TIMEOUT_MS, resolveLimits } from '../limits.js';
import { mapCwd } from '../workspace/map-cwd.js';
import { ProtectedPlaceholders } from '../workspace/placeholders.js';
import { DEFAULT_PROTECTED_PATHS } from '../workspace/protected-paths.js';
import { ContainerPool, removeLeftoverContainers } from './container-pool.js';
import { DEFAULT_SANDBOX_USER, containerSpec } from './container-spec.js';
import { DockerCommand } from './docker-command.js';
import { CONTAINER_WORKSPACE, DEFAULT_DOCKER_IMAGE, type DockerExecutorOptions } from './docker-options.js';
import { ownerOf } from './labels.js';

/** The key of requests that carry none. */
export const DEFAULT_SANDBOX_KEY = 'default';

/** An {@link Executor} backed by Docker containers, with the pool's figures for tests and doctor checks. */
export interface DockerExecutor extends Executor {
  readonly kind: 'docker';
  /** Containers held now (one per sandbox key in use). */
  readonly containerCount: number;
  /** Removes the containers idle past `idleMs` now; returns how many. */
  reapIdle(): Promise<number>;
  /** Settles once leftovers of crashed processes have been looked for and removed; resolves to how many. */
  readonly leftoversRemoved: Promise<number>;
  release(sandboxKey: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * An {@link Executor} that runs each command as a `docker exec` in a hardened container, one
 * container per `sandboxKey` (the session), created on its first command and reused after,
 * with the workspace mounted at `/workspace`. Containers are removed by `release(key)`, by
 * `close()`, after `idleMs` unused, and (by the next executor) when the process that made
 * them died. Failures to reach the engine or find the image reject `done` with a
 * `ToolError` whose `details.sandboxCode` names the cause.
 *
 * @example
 * const executor = createDockerExecutor({ workspace: '/srv/project' });
 * const result = await executor.start({ command: 'ls', cwd: '/srv/project', env: {}, sandboxKey: 'session-1' }).done;
 * await executor.close();
 */
export function createDockerExecutor(options: DockerExecutorOptions): DockerExecutor {
  const workspace = resolve(options.workspace);
  const docker = options.docker ?? new Docker();
  const image = options.image ?? DEFAULT_DOCKER_IMAGE;
  const limits = resolveLimits(options.limits);
  const hardening = options.hardening ?? {};
  const user = hardening.user ?? DEFAULT_SANDBOX_USER;
  const protectedPaths = options.protectedPaths ?? DEFAULT_PROTECTED_PATHS;
  const envAllowList = options.envAllowList ?? [];
  const fixedEnv = { ...SANDBOX_FIXED_ENV, ...options.env };
  const owner = ownerOf();
  const allowList = options.network !== undefined && options.network !== 'none' ? options.network : undefined;
  let proxy: Promise<AllowListProxy> | undefined;
  const proxyFor = (list: NetworkAllowList): Promise<AllowListProxy> => {
    proxy ??= startAllowListProxy(
      join(tmpdir(), `toolplane-proxy-${process.pid}-${randomBytes(6).toString('hex')}.sock`),
      list,
    );
    return proxy;
  };
  const prepare = allowList
    ? async (container: Docker.Container): Promise<() => void> => {
        const running = await proxyFor(allowList);
        const info = await container.inspect();
        const forwarder = await startNamespaceForwarder(info.State.Pid, running.socketPath);
        return () => forwarder.stop();
      }
    : undefined;
  let refused: AllowListProxy | undefined;
  const placeholders = new ProtectedPlaceholders(workspace, protectedPaths);
  const pool = new ContainerPool({
    ...(prepare ? { prepare } : {}),
    docker,
    image,
    idleMs: options.idleMs ?? 15 * 60_000,
    spec: (keyLabel) => {
      const layout = placeholders.acquire();
      try {
        const options = containerSpec({
          image,
          workspace,
          protectedMounts: layout.mounts,
          limits,
          hardening,
          owner,
          keyLabel,
        });
        return { options, release: layout.release };
      } catch (error) {
        layout.release();
        throw error;
      }
    },
  });
  void (async () => {
    if (allowList) refused = await proxyFor(allowList).catch(() => undefined);
  })();
  const leftoversRemoved =
    options.removeLeftovers === false ? Promise.resolve(0) : removeLeftoverContainers(docker).catch(() => 0);
  const commands = new Set<DockerCommand>();
  let closed = false;

  function workspaceProblem(): Error | undefined {
    try {
      if (statSync(workspace).isDirectory()) return undefined;
    } catch {
      // reported below
    }
    return sandboxError(
      'SANDBOX_WORKSPACE_INVALID',
      `the sandbox workspace ${workspace} is not an existing directory: create it or pass another workspace`,
    );
  }

  return {
    kind: 'docker',
    get containerCount() {
      return pool.size;
    },
    leftoversRemoved,
    reapIdle: () => pool.reapIdle(),
    start(request: ExecRequest): ExecProcess {
      if (closed)
        return failedProcess(sandboxError('SANDBOX_CLOSED', 'the docker sandbox executor is closed'));
      const problem = workspaceProblem();
      if (problem) return failedProcess(problem);
      let workingDir: string;
      try {
        workingDir = mapCwd(workspace, request.cwd, CONTAINER_WORKSPACE);
      } catch (error) {
        return failedProcess(error);
      }
      const timeoutMs =
        request.timeoutMs !== undefined && request.timeoutMs > 0
          ? request.timeoutMs
          : (options.defaultTimeoutMs ?? DEFAULT_SANDBOX_TIMEOUT_MS);
      const command = new DockerCommand(request, request.sandboxKey ?? DEFAULT_SANDBOX_KEY, {
        docker,
        pool,
        image,
        user,
        limits,
        networkNone: allowList === undefined,
        ...(allowList ? { refusedSince: (since: number) => refused?.refusedSince(since) ?? [] } : {}),
        drainMs: options.drainMs ?? 250,
        timeoutMs,
        maxOutputBytes: request.maxOutputBytes ?? options.defaultMaxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
        workingDir,
        env: {
          ...sandboxEnvironment(request.env, envAllowList, fixedEnv),
          ...(allowList ? proxyEnvironment() : {}),
          PWD: workingDir,
        },
      });
      commands.add(command);
      void command.done.finally(() => commands.delete(command)).catch(() => undefined);
      return command;
    },
    async release(key: string) {
      await pool.release(key);
    },
    async close() {
      closed = true;
      await leftoversRemoved;
      await Promise.all([...commands].map((command) => command.kill().catch(() => undefined)));
      await pool.close();
      if (proxy) await (await proxy.catch(() => undefined))?.close();
    },
  };
}
