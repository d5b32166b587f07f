import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPO_ROOT = join(SERVER_ROOT, '..', '..');

/**
 * Builds `dist/main.js` the way the Quick start does: the server itself every time (so the
 * test never runs a stale build), its workspace dependencies only when their `dist` is missing.
 */
export function buildServer(): string {
  const manifest = JSON.parse(readFileSync(join(SERVER_ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const workspace = Object.keys(manifest.dependencies).filter((name) => name.startsWith('@toolplane/'));
  const missing = workspace.some((name) => !existsSync(join(SERVER_ROOT, 'node_modules', name, 'dist')));
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  if (missing)
    execFileSync(npx, ['-y', 'pnpm@10', '--filter', '@toolplane/server^...', 'build'], {
      cwd: REPO_ROOT,
      stdio: 'pipe',
      timeout: 240_000,
    });
  execFileSync(
    process.execPath,
    [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: SERVER_ROOT,
      stdio: 'pipe',
      timeout: 120_000,
    },
  );
  return join(SERVER_ROOT, 'dist', 'main.js');
}
