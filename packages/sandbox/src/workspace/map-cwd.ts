import { relative, resolve, sep } from 'node:path';
import { sandboxError } from '../errors.js';

/**
 * The sandbox path of a host working directory under `workspace` (mounted at `mountPoint`);
 * throws `SANDBOX_CWD_OUTSIDE_WORKSPACE` for one outside it. A relative `cwd` is taken as
 * relative to the workspace.
 */
export function mapCwd(workspace: string, cwd: string, mountPoint: string): string {
  const rel = relative(workspace, resolve(workspace, cwd));
  if (rel === '') return mountPoint;
  if (rel.startsWith(`..${sep}`) || rel === '..' || resolve(rel) === rel) {
    throw sandboxError(
      'SANDBOX_CWD_OUTSIDE_WORKSPACE',
      `cwd ${cwd} is outside the sandbox's workspace ${workspace}: only the workspace is mounted in the sandbox; pass a directory inside it`,
      { details: { cwd, workspace } },
    );
  }
  return `${mountPoint}/${rel.split(sep).join('/')}`;
}
