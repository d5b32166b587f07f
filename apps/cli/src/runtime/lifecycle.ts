import type { LoadedConfig } from '../config/load.js';
import { startSpinner } from '../output/spinner.js';
import { type AssembleOptions, type Runtime, assembleRuntime } from './assemble.js';

const SIGNAL_EXIT_CODES: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/**
 * Runs `body` with a started runtime and always closes it (child servers stop), also on
 * SIGINT/SIGTERM/SIGHUP, which end the process with 128 + the signal number.
 */
export async function withRuntime<T>(
  loaded: LoadedConfig,
  options: AssembleOptions & { readonly warmup?: boolean },
  body: (runtime: Runtime) => Promise<T>,
): Promise<T> {
  const assembled = await assembleRuntime(loaded, options);
  let stopping = false;
  // A signal during the start stops the warmup, and its providers "did not start": the command
  // must not go on with that (serve, print a partial list, report the providers as failed).
  // Its warmup never settles instead; the signal's handler closes the runtime and exits.
  const runtime: Runtime = {
    ...assembled,
    async warmup() {
      const reports = await assembled.warmup();
      if (stopping) await new Promise<never>(() => {});
      return reports;
    },
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    void runtime.close().finally(() => process.exit(SIGNAL_EXIT_CODES[signal] ?? 1));
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
    return await body(runtime);
  } finally {
    for (const signal of signals) process.off(signal, onSignal);
    await runtime.close();
  }
}
