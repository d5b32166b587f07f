import picomatch from 'picomatch';

/**
 * Workspace paths the tools may read but never write by default: git hooks and config (a
 * written hook runs on the next commit), shell start-up files, and toolplane's own config.
 */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = [
  '.git/hooks',
  '.git/hooks/**',
  '.git/config',
  '**/.bashrc',
  '**/.bash_profile',
  '**/.bash_login',
  '**/.bash_logout',
  '**/.profile',
  '**/.zshrc',
  '**/.zshenv',
  '**/.zprofile',
  '**/.zlogin',
  '**/.envrc',
  '.toolplane',
  '.toolplane/**',
  'toolplane.config.*',
];

/** A matcher of workspace-relative POSIX paths against protected-path globs. */
export function createProtectedMatcher(patterns: readonly string[]): (relativePath: string) => boolean {
  if (patterns.length === 0) return () => false;
  const match = picomatch([...patterns], { dot: true });
  return (relativePath) => match(relativePath);
}
