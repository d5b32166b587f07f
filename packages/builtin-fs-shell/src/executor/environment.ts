/**
 * Environment variables passed from the host to commands by default: enough for programs to
 * find each other, pick a locale and a temp dir; nothing that usually holds a credential.
 */
export const DEFAULT_ENV_ALLOW_LIST: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_*',
  'TERM',
  'TZ',
  'TMPDIR',
  'COLORTERM',
  'NO_COLOR',
];

function matcher(pattern: string): (name: string) => boolean {
  if (pattern.endsWith('*')) {
    const prefix = pattern.slice(0, -1);
    return (name) => name.startsWith(prefix);
  }
  return (name) => name === pattern;
}

/**
 * The environment of a command: host variables whose names match the allow-list (exact
 * names, or a prefix ending in `*`), then `extra` on top.
 *
 * @example
 * buildCommandEnv(process.env, ['PATH', 'LC_*'], { CI: '1' });
 */
export function buildCommandEnv(
  host: NodeJS.ProcessEnv,
  allowList: readonly string[],
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const matchers = allowList.map(matcher);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(host)) {
    if (value !== undefined && matchers.some((match) => match(name))) env[name] = value;
  }
  return { ...env, ...extra };
}
