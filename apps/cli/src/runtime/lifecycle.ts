import { ToolError } from '@toolplane/core';
import type { LoadedConfig } from '../config/load.js';
import { startSpinner } from '../output/spinner.js';
import { type AssembleOptions, type Runtime, assembleRuntime } from './assemble.js';

const SIGNAL_EXIT_CODES: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/** How long `onStop` may take on a signal before the providers are closed anyway. */
const STOP_GRACE_MS = 10_000;

/** Resolves when `work` settles, or after {@link STOP_GRACE_MS}; never rejects. */
function untilSettled(work: Promise<void> | undefined): Promise<void> {
  if (!work) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, STOP_GRACE_MS);
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    work.then(done, done);
  });
}

/** A promise that never settles: the signal handler ends the process instead. */
function parked(): Promise<never> {
  return new Promise<never>(() => {});
}

/**
 * Runs `body` with a started runtime and always closes it (child servers stop), also on
 * SIGINT/SIGTERM/SIGHUP, which end the process with 128 + the signal number after saying so on
 * stderr. `body` gets a signal that aborts then (with `CANCELLED`): a call given it ends at
 * once, and a body that sees it aborted prints nothing more (its output would be cut short).
 */
export async function withRuntime<T>(
  loaded: LoadedConfig,
  options: AssembleOptions & {
    readonly warmup?: boolean;
    readonly stderr?: NodeJS.WritableStream;
    /**
     * Run on a signal before the providers close (at most {@link STOP_GRACE_MS}): what the body
     * started on top of the providers (an agent run's subagents) ends while its tools still answer.
     */
    readonly onStop?: () => Promise<void>;
  },
  body: (runtime: Runtime, stopped: AbortSignal) => Promise<T>,
): Promise<T> {
  const assembled = await assembleRuntime(loaded, options);
  let stopping = false;
  const stop = new AbortController();
  // A signal during the start stops the warmup, and its providers "did not start": the command
  // must not go on with that (serve, print a partial list, report the providers as failed).
  // Its warmup never settles instead; the signal's handler closes the runtime and exits.
  const runtime: Runtime = {
    ...assembled,
    async warmup() {
      const reports = await assembled.warmup();
      if (stopping) await parked();
      return reports;
    },
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    const code = SIGNAL_EXIT_CODES[signal] ?? 1;
    // said before the close, which may take a moment (servers get their grace period)
    (options.stderr ?? process.stderr).write(
      `toolplane: stopped by ${signal} (exit code ${code}): cancelling calls and closing the providers\n`,
    );
    stop.abort(new ToolError('CANCELLED', `the call was cancelled: toolplane was stopped by ${signal}`));
    void untilSettled(options.onStop?.())
      .then(() => runtime.close())
      .finally(() => process.exit(code));
  };
  const signals = Object.keys(SIGNAL_EXIT_CODES) as NodeJS.Signals[];
  // `on`, not `once`: the MCP provider's exit guard re-raises a signal nobody else listens to
  for (const signal of signals) process.on(signal, onSignal);
  try {
    if (options.warmup !== false) {
      const spinner = startSpinner(`starting ${runtime.providers.length} provider(s)…`);
      try {
        await runtime.warmup();
      } finally {
        spinner.stop();
      }
    }
    // a body that ends (or fails) because of the signal does not race the handler's exit
    const result = await body(runtime, stop.signal).catch((error: unknown) =>
      stopping ? parked() : Promise.reject(error),
    );
    if (stopping) await parked();
    return result;
  } finally {
    for (const signal of signals) process.off(signal, onSignal);
    await runtime.close();
  }
}
