import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { type ProtectedMount, protectedAnchors } from '../workspace/protected-paths.js';

/** Where the workspace is bound in the jail. */
export const JAIL_WORKSPACE = '/workspace';

/** What the jail is made of. */
export interface JailLayout {
  readonly workspace: string;
  readonly workingDir: string;
  readonly systemPaths: readonly string[];
  readonly protectedMounts: readonly ProtectedMount[];
  readonly tmpBytes: number;
  /** The uid and gid inside the jail. */
  readonly uid: number;
  readonly gid: number;
  /** Extra read-only binds (the proxy socket). */
  readonly extraReadOnly?: readonly { readonly source: string; readonly target: string }[];
  /** Keep the host network (only for the allow-list forwarder's own jail; never for commands). */
  readonly shareNet?: boolean;
}

/** The arguments of the system paths, by list: looked up once (host system directories do not move). */
const systemArguments = new WeakMap<readonly string[], readonly string[]>();

/** The arguments that bind the system paths read-only, or recreate a host symlink such as `/bin -> usr/bin`. */
function systemPathArguments(paths: readonly string[]): readonly string[] {
  const known = systemArguments.get(paths);
  if (known) return known;
  const args: string[] = [];
  for (const path of paths) {
    let info: ReturnType<typeof lstatSync>;
    try {
      info = lstatSync(path);
    } catch {
      continue;
    }
    if (info.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else args.push('--ro-bind', path, path);
  }
  systemArguments.set(paths, args);
  return args;
}

/**
 * The bwrap arguments of a jail: system directories read-only (a host symlink such as
 * `/bin -> usr/bin` is recreated as a symlink), the workspace read-write with its protected
 * paths read-only over it, a tmpfs `/tmp`, fresh `/proc` and `/dev`, every namespace new
 * (user, PID, network, IPC, UTS, cgroup) with no nested user namespaces, its own session (no terminal injection), and
 * `--die-with-parent`.
 */
export function bwrapArguments(layout: JailLayout): string[] {
  const args = [...systemPathArguments(layout.systemPaths)];
  args.push('--size', String(layout.tmpBytes), '--tmpfs', '/tmp');
  args.push('--bind', layout.workspace, JAIL_WORKSPACE);
  for (const anchor of protectedAnchors(layout.workspace, layout.protectedMounts)) {
    args.push('--bind', anchor.hostPath, `${JAIL_WORKSPACE}/${anchor.relative}`);
  }
  for (const mount of layout.protectedMounts) {
    args.push('--ro-bind', mount.hostPath, `${JAIL_WORKSPACE}/${mount.relative}`);
  }
  for (const mount of layout.extraReadOnly ?? []) {
    if (existsSync(mount.source)) args.push('--ro-bind', mount.source, mount.target);
  }
  args.push(
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--unshare-all',
    ...(layout.shareNet === true ? ['--share-net'] : []),
    // A nested user namespace would give the command "root" over its own mounts: enough to
    // bind the workspace again without the read-only protected paths on top.
    '--unshare-user',
    '--disable-userns',
    '--uid',
    String(layout.uid),
    '--gid',
    String(layout.gid),
    '--hostname',
    'sandbox',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--chdir',
    layout.workingDir,
  );
  return args;
}
