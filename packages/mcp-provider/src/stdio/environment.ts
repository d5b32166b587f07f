const POSIX_INHERITED = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TMPDIR',
  'TZ',
];
const WINDOWS_INHERITED = [
  'APPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'USERNAME',
  'USERPROFILE',
  'PROGRAMFILES',
];

/**
 * The environment a stdio server starts with: a few safe variables of the parent (PATH, HOME,
 * USER, SHELL, TERM, locale, TMPDIR), never its secrets, then the server's own `env` on top.
 */
export function serverEnvironment(
  own: Readonly<Record<string, string>> | undefined,
  options: { inheritAll?: boolean; parent?: NodeJS.ProcessEnv } = {},
): Record<string, string> {
  const parent = options.parent ?? process.env;
  const out: Record<string, string> = {};
  if (options.inheritAll) {
    for (const [key, value] of Object.entries(parent)) if (value !== undefined) out[key] = value;
  } else {
    for (const key of process.platform === 'win32' ? WINDOWS_INHERITED : POSIX_INHERITED) {
      const value = parent[key];
      // Exported bash functions look like '() {...}' and are a known injection vector.
      if (value !== undefined && !value.startsWith('()')) out[key] = value;
    }
  }
  return { ...out, ...own };
}
