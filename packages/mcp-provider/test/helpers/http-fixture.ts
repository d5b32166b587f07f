import { type ChildProcess, spawn } from 'node:child_process';
import { fixture } from './index.js';

/** A fixture HTTP server in a child process; `close()` kills it. */
export interface RunningHttpFixture {
  readonly port: number;
  readonly child: ChildProcess;
  close(): Promise<void>;
}

/** Starts an HTTP fixture (test/fixtures/http-server.mjs by default) on 127.0.0.1 port 0 and waits for its port. */
export async function startHttpFixture(
  flags: string[] = [],
  file = 'http-server.mjs',
): Promise<RunningHttpFixture> {
  const child = spawn(process.execPath, [fixture(file), ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`http fixture did not start: ${stderr}`)), 20_000);
    child.stdout?.on('data', (chunk) => {
      const match = /PORT (\d+)/.exec(String(chunk));
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`http fixture exited (${code}): ${stderr}`));
    });
  });
  return {
    port,
    child,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
