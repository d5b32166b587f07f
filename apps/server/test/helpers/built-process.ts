import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';

/** `node dist/main.js` running on a copy of the prepared embedded database. */
export interface BuiltProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** The first admin key from the banner. */
  readonly adminKey: string;
  /** SIGTERM, then SIGKILL after 10 s; removes the state directory. */
  stop(): Promise<void>;
}

/** Starts the built server and waits for its banner (bounded: 300 checks, 100 ms apart). */
export async function startBuiltProcess(
  main: string,
  env: Record<string, string> = {},
): Promise<BuiltProcess> {
  const stateDir = mkdtempSync(join(tmpdir(), 'toolplane-built-'));
  cpSync(inject('pgliteTemplate'), join(stateDir, 'db'), { recursive: true });
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, TOOLPLANE_STATE_DIR: stateDir, TOOLPLANE_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (data) => {
    out += data;
  });
  child.stderr?.on('data', (data) => {
    err += data;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(stateDir, { recursive: true, force: true });
  };
  const banner = /listening on (\S+)[\s\S]*\b(tpk_[A-Za-z0-9_-]{43})\b/;
  for (let attempt = 0; attempt < 300 && !banner.test(out); attempt += 1) {
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const found = banner.exec(out);
  if (!found) {
    await stop();
    throw new Error(`the built server printed no URL and admin key: ${out} ${err}`);
  }
  return { child, url: found[1] as string, adminKey: found[2] as string, stop };
}
