/**
 * Whether a tool name matches a grant pattern: an exact name, or `*` for any run of characters
 * (`github__*`, `*__read`, `*`).
 */
export function matchesToolPattern(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  const parts = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`).test(name);
}
