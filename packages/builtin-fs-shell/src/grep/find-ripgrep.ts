import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

let cached: { path: string | undefined; searchPath: string | undefined } | undefined;

/** The `rg` executable on PATH, or undefined. Cached per PATH value. */
export function findRipgrep(searchPath = process.env.PATH): string | undefined {
  if (cached && cached.searchPath === searchPath) return cached.path;
  let found: string | undefined;
  for (const directory of (searchPath ?? '').split(delimiter)) {
    if (directory === '') continue;
    const candidate = join(directory, 'rg');
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) {
        found = candidate;
        break;
      }
    } catch {
      // not here
    }
  }
  cached = { path: found, searchPath };
  return found;
}
