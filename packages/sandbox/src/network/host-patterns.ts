/**
 * Whether `host` is on the allow-list: an exact name (case-insensitive, a trailing dot
 * ignored), or `*.example.com`, which matches any subdomain of example.com but not the apex.
 */
export function hostAllowed(host: string, allow: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  for (const entry of allow) {
    const pattern = entry.toLowerCase().replace(/\.$/, '');
    if (pattern.startsWith('*.')) {
      const suffix = pattern.slice(1);
      if (name.endsWith(suffix) && name.length > suffix.length) return true;
    } else if (name === pattern) {
      return true;
    }
  }
  return false;
}
