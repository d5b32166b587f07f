/**
 * The environment of a sandboxed command: the variables of the request whose names the
 * allow-list matches (exact names, or a prefix ending in `*`), then the sandbox's own fixed
 * variables on top. By default nothing of the request passes: a host's PATH or HOME mean
 * nothing inside a sandbox, and its other variables are where credentials live.
 */
export function sandboxEnvironment(
  requested: Readonly<Record<string, string>>,
  allowList: readonly string[],
  fixed: Readonly<Record<string, string>>,
): Record<string, string> {
  const matchers = allowList.map((pattern) =>
    pattern.endsWith('*')
      ? (name: string) => name.startsWith(pattern.slice(0, -1))
      : (name: string) => name === pattern,
  );
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(requested)) {
    if (matchers.some((match) => match(name))) env[name] = value;
  }
  return { ...env, ...fixed };
}

/** The variables every sandboxed command gets, whatever its request holds. */
export const SANDBOX_FIXED_ENV: Readonly<Record<string, string>> = {
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  HOME: '/tmp',
  TMPDIR: '/tmp',
};
