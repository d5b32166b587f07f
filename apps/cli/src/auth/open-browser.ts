import { spawn } from 'node:child_process';

/**
 * Whether a browser may be opened: never under CI or with `TOOLPLANE_NO_BROWSER` set, and on
 * Linux only with a display.
 */
export function browserAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.CI || env.TOOLPLANE_NO_BROWSER) return false;
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** Opens `url` in the user's browser, detached; a failure to open is not an error (the URL is printed). */
export function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // the printed URL is the way in
  }
}
