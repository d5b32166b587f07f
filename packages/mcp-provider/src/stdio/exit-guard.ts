import { type ProcessTreeTarget, killProcessTreesSync } from './process-tree.js';

const live = new Map<string, ProcessTreeTarget>();
let installed = false;
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function killAll(): void {
  const targets = [...live.values()];
  live.clear();
  killProcessTreesSync(targets);
}

function onSignal(signal: NodeJS.Signals): void {
  killAll();
  // If nobody else handles the signal, keep Node's default behaviour: die by it.
  if (process.listenerCount(signal) === 1) {
    uninstall();
    process.kill(process.pid, signal);
  }
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.removeListener('exit', killAll);
  for (const signal of SIGNALS) process.removeListener(signal, onSignal);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', killAll);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

/**
 * Remembers a running server tree so that the parent exiting (normally, or by SIGINT, SIGTERM,
 * SIGHUP) kills it. Handlers are installed while at least one server runs; a signal nobody
 * else listens to still ends the process as Node would.
 */
export function guardProcessTree(key: string, target: ProcessTreeTarget): void {
  live.set(key, target);
  install();
}

/** Forgets a tree that was stopped. */
export function releaseProcessTree(key: string): void {
  live.delete(key);
  if (live.size === 0) uninstall();
}

/** Number of guarded trees (for tests and diagnostics). */
export function guardedProcessTreeCount(): number {
  return live.size;
}
