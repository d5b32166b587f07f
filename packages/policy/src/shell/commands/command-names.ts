/**
 * The name a command is matched by: the last path segment on either separator, without a
 * Windows executable suffix (`/bin/rm` -> `rm`, `C:\Windows\System32\del.exe` -> `del`).
 * Escapes and quotes are already gone by the time a word reaches here (`\rm` is `rm`).
 */
export function normalizeCommandName(name: string): string {
  const slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  let base = slash >= 0 ? name.slice(slash + 1) : name;
  const lower = base.toLowerCase();
  for (const suffix of ['.exe', '.com', '.cmd', '.bat']) {
    if (lower.endsWith(suffix) && base.length > suffix.length) {
      base = base.slice(0, -suffix.length);
      break;
    }
  }
  return base;
}
