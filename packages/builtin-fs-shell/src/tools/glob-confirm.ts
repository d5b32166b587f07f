import { closeSync, constants, lstatSync, openSync, readlinkSync } from 'node:fs';
import { join, posix } from 'node:path';
import { performance } from 'node:perf_hooks';
import { HAS_PROC_FD } from '../workspace/walk-descriptor.js';

/** A path `glob` found, with the modification time it sorts by. */
export interface ConfirmedPath {
  readonly path: string;
  readonly mtimeMs: number;
}

const SLICE_MS = 10;

/**
 * The walk `glob` uses (tinyglobby) reads directories by path, so a directory swapped for a
 * symbolic link to the outside while it walks lends it names from there. This keeps only the
 * paths that are there, inside, once the walk is over: each directory of the results is opened
 * and its descriptor's real path checked with `inside`, and each name is looked up through that
 * descriptor (`/proc/self/fd/N/name`), which also gives the modification time to sort by. A
 * name seen outside is not in the directory inside, so it is dropped; so is a file removed
 * since the walk. Without `/proc` the names are looked up by path, as before.
 */
export async function confirmInside(
  base: string,
  paths: readonly string[],
  inside: (realPath: string) => boolean,
  signal?: AbortSignal,
): Promise<ConfirmedPath[]> {
  const byDirectory = new Map<string, string[]>();
  for (const path of paths) {
    const directory = posix.dirname(path);
    const names = byDirectory.get(directory);
    if (names) names.push(path);
    else byDirectory.set(directory, [path]);
  }
  const confirmed: ConfirmedPath[] = [];
  let sliceStart = performance.now();
  for (const [directory, names] of byDirectory) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw signal.reason;
      sliceStart = performance.now();
    }
    let fd: number | undefined;
    if (HAS_PROC_FD) {
      try {
        // Links are followed here: the walk starts at the pattern's fixed part even when that
        // is a link; where the descriptor really is decides.
        fd = openSync(join(base, directory), constants.O_RDONLY | constants.O_DIRECTORY);
      } catch {
        continue;
      }
    }
    try {
      if (fd !== undefined) {
        let real: string | undefined;
        try {
          real = readlinkSync(`/proc/self/fd/${fd}`);
        } catch {
          real = undefined;
        }
        if (real === undefined || !inside(real)) continue;
      }
      for (const path of names) {
        const name = directory === '.' ? path : path.slice(directory.length + 1);
        const at = fd === undefined ? join(base, path) : `/proc/self/fd/${fd}/${name}`;
        const info = lstatSync(at, { throwIfNoEntry: false });
        if (info && !info.isDirectory()) confirmed.push({ path, mtimeMs: info.mtimeMs });
      }
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  return confirmed;
}
