import picomatch from 'picomatch';
import { linearGlob } from './linear-glob.js';

/** Include/exclude globs and file types, with ripgrep's `--glob` meaning. */
export interface FileFilter {
  /** True when a file (path relative to the search root) should be searched. */
  file(relativePath: string): boolean;
  /** True when a directory is excluded by a negated glob. */
  excludesDirectory(relativePath: string): boolean;
}

function compile(pattern: string): (path: string) => boolean {
  const anchored = pattern.startsWith('/');
  const body = anchored ? pattern.slice(1) : pattern;
  // Like gitignore globs: a pattern without a slash matches the name at any depth.
  const basename = !anchored && !body.includes('/');
  // Linear-time matching when the glob allows (all but `!(...)`): picomatch's regular
  // expressions backtrack on long names.
  const linear = linearGlob(body, { basename });
  if (linear !== undefined) return linear;
  const match = picomatch(body, { dot: true, basename });
  return (path) => match(path);
}

/** A filter from `--glob` style patterns (a leading `!` excludes) and the globs of a type. */
export function createFileFilter(
  globs: readonly string[],
  typeGlobs: readonly string[] | undefined,
): FileFilter {
  const includes = globs.filter((glob) => !glob.startsWith('!')).map(compile);
  const excludes = globs.filter((glob) => glob.startsWith('!')).map((glob) => compile(glob.slice(1)));
  const types = typeGlobs?.map((glob) => compile(glob));
  return {
    file(path) {
      if (excludes.some((match) => match(path))) return false;
      if (includes.length > 0 && !includes.some((match) => match(path))) return false;
      if (types && !types.some((match) => match(path))) return false;
      return true;
    },
    excludesDirectory(path) {
      return excludes.some((match) => match(path));
    },
  };
}
