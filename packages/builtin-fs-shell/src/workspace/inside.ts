import { isAbsolute, relative, sep } from 'node:path';

/** True when `path` is `root` or below it (a sibling such as `/work/app-evil` of `/work/app` is not). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  if (rel === '') return true;
  if (isAbsolute(rel)) return false;
  return rel !== '..' && !rel.startsWith(`..${sep}`);
}

/** `path` relative to `root`, with forward slashes; `.` for the root itself. */
export function toPosixRelative(root: string, path: string): string {
  const rel = relative(root, path);
  if (rel === '') return '.';
  return sep === '/' ? rel : rel.split(sep).join('/');
}
