import { ToolError, type ToolProvider, errorMessage } from '@toolplane/core';
import type { LoadedMcpConfig } from './config/load.js';
import { serverNameProblem } from './config/server-name.js';
import { problemToError } from './config/problems.js';
import { createMcpProvider } from './provider.js';
import type { McpProvider, McpProviderOptions } from './provider-types.js';

/** How starting one provider went. */
export type ProviderStartOutcome =
  | { readonly provider: ToolProvider; readonly ok: true; readonly durationMs: number }
  | {
      readonly provider: ToolProvider;
      readonly ok: false;
      readonly error: ToolError;
      readonly durationMs: number;
    };

/**
 * Starts providers with at most `concurrency` starting at once. One that fails is reported
 * in its outcome; the others go on. (The orchestrator's `warmup()` does the same for all providers.)
 *
 * @example
 * const outcomes = await startMcpProviders(providers, { concurrency: 4 });
 * for (const o of outcomes) if (!o.ok) console.warn(o.error.message);
 */
export async function startMcpProviders(
  providers: readonly ToolProvider[],
  options: { concurrency?: number; signal?: AbortSignal } = {},
): Promise<ProviderStartOutcome[]> {
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const outcomes: ProviderStartOutcome[] = new Array(providers.length);
  let next = 0;
  const signal = options.signal ?? new AbortController().signal;
  async function worker(): Promise<void> {
    while (next < providers.length) {
      const index = next++;
      const provider = providers[index] as ToolProvider;
      const started = performance.now();
      try {
        await provider.start?.(signal);
        outcomes[index] = { provider, ok: true, durationMs: performance.now() - started };
      } catch (error) {
        const toolError = ToolError.isInstance(error)
          ? error
          : new ToolError('PROVIDER_UNAVAILABLE', `${provider.namespace}: ${errorMessage(error)}`, {
              cause: error,
            });
        outcomes[index] = { provider, ok: false, error: toolError, durationMs: performance.now() - started };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, providers.length) }, worker));
  return outcomes;
}

/**
 * One provider per server of a loaded config. A server with a config problem (and a valid
 * name) gets a provider whose `start()` rejects with that `CONFIG_INVALID` error, so warmup
 * reports it next to the servers that run.
 */
export function createMcpProviders(loaded: LoadedMcpConfig, options: McpProviderOptions = {}): McpProvider[] {
  const providers: McpProvider[] = Object.entries(loaded.servers).map(([name, config]) =>
    createMcpProvider(name, config, options),
  );
  const failed = new Map<string, ToolError>();
  for (const problem of loaded.problems) {
    if (serverNameProblem(problem.server) !== undefined || failed.has(problem.server)) continue;
    failed.set(problem.server, problemToError(problem));
  }
  for (const [name, error] of failed) providers.push(failedProvider(name, error));
  return providers;
}

function failedProvider(name: string, error: ToolError): McpProvider {
  return {
    specificationVersion: 'v1',
    kind: 'mcp',
    namespace: name,
    prefixNames: true,
    server: name,
    start: () => Promise.reject(error),
    listTools: () => [],
    execute: () =>
      Promise.resolve({ ok: false, error: { code: error.code, message: error.message, retryable: false } }),
    status: () => ({ server: name, state: 'failed', lastError: error.message, tools: 0 }),
    refreshTools: () => Promise.reject(error),
    restart: () => Promise.reject(error),
    ping: () => Promise.reject(error),
    close: () => Promise.resolve(),
  };
}
