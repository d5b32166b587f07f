import type Docker from 'dockerode';
import type { ResolvedLimits } from '../limits.js';
import { type ProtectedMount, protectedAnchors } from '../workspace/protected-paths.js';
import { CONTAINER_WORKSPACE, type DockerHardening } from './docker-options.js';
import { KEY_LABEL, OWNER_LABEL, SANDBOX_LABEL } from './labels.js';

/** What a container is made from. */
export interface ContainerSpecInput {
  readonly image: string;
  readonly workspace: string;
  readonly protectedMounts: readonly ProtectedMount[];
  readonly limits: ResolvedLimits;
  readonly hardening: DockerHardening;
  readonly owner: string;
  readonly keyLabel: string;
  /** Extra read-only bind mounts (`host:container`), e.g. the proxy socket. */
  readonly extraReadOnly?: readonly { readonly source: string; readonly target: string }[];
}

/** The user commands run as when nothing else is configured: nobody. */
export const DEFAULT_SANDBOX_USER = '65534:65534';

/**
 * The create options of a hardened sandbox container: no network, a read-only root with a
 * tmpfs `/tmp`, every capability dropped, no-new-privileges, nobody, pids/memory/CPU limits,
 * the workspace read-write at `/workspace` with the protected paths read-only over it, and
 * never the Docker socket. PID 1 is docker's init (it reaps orphans) running a long sleep;
 * commands run as `docker exec`s beside it.
 */
export function containerSpec(input: ContainerSpecInput): Docker.ContainerCreateOptions {
  const { limits, hardening } = input;
  const mounts: Docker.MountSettings[] = [
    { Type: 'bind', Source: input.workspace, Target: CONTAINER_WORKSPACE, ReadOnly: false },
    ...protectedAnchors(input.workspace, input.protectedMounts).map(
      (anchor): Docker.MountSettings => ({
        Type: 'bind',
        Source: anchor.hostPath,
        Target: `${CONTAINER_WORKSPACE}/${anchor.relative}`,
        ReadOnly: false,
      }),
    ),
    ...input.protectedMounts.map(
      (mount): Docker.MountSettings => ({
        Type: 'bind',
        Source: mount.hostPath,
        Target: `${CONTAINER_WORKSPACE}/${mount.relative}`,
        ReadOnly: true,
      }),
    ),
    ...(input.extraReadOnly ?? []).map(
      (mount): Docker.MountSettings => ({
        Type: 'bind',
        Source: mount.source,
        Target: mount.target,
        ReadOnly: true,
      }),
    ),
  ];
  for (const mount of mounts) {
    if (/docker\.sock$|containerd\.sock$/.test(mount.Source ?? '')) {
      throw new Error(`refusing to mount an engine socket (${mount.Source}) into a sandbox`);
    }
  }
  return {
    Image: input.image,
    Entrypoint: ['sleep'],
    Cmd: ['2147483647'],
    User: hardening.user ?? DEFAULT_SANDBOX_USER,
    WorkingDir: CONTAINER_WORKSPACE,
    Env: [],
    Labels: { [SANDBOX_LABEL]: '1', [OWNER_LABEL]: input.owner, [KEY_LABEL]: input.keyLabel },
    NetworkDisabled: false,
    StopTimeout: 1,
    HostConfig: {
      Init: true,
      NetworkMode: 'none',
      ReadonlyRootfs: hardening.readOnlyRoot ?? true,
      Tmpfs: { '/tmp': `rw,nosuid,nodev,size=${limits.tmpBytes},mode=1777` },
      CapDrop: ['ALL'],
      CapAdd: [...(hardening.capabilities ?? [])],
      SecurityOpt: hardening.noNewPrivileges === false ? [] : ['no-new-privileges'],
      PidsLimit: limits.pids,
      Memory: limits.memoryBytes,
      MemorySwap: limits.memoryBytes,
      NanoCpus: Math.round(limits.cpus * 1e9),
      IpcMode: 'private',
      Privileged: false,
      Mounts: mounts,
      AutoRemove: false,
      RestartPolicy: { Name: 'no' },
    },
  };
}
