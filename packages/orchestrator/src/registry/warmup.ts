import { checkSpecs } from './check-specs.js';
import type { ProviderEntry } from './registry.js';
import { thrownMessage } from '../call/thrown.js';

/** How one provider's start went. */
export interface WarmupReport {
  readonly provider: string;
  readonly kind: string;
  readonly ok: boolean;
  readonly tools: number;
  readonly durationMs: number;
  readonly error?: string;
}

/** Options of {@link warmupProviders}. */
export interface WarmupOptions {
  readonly concurrency: number;
  readonly startTimeoutMs: number;
  readonly signal?: AbortSignal;
  readonly onFailed: (provider: string, error: string) => void;
  readonly onChanged: (entry: ProviderEntry) => void;
  /** A provider listed tools that had to be skipped. */
  readonly onWarning: (provider: string, message: string) => void;
}

/**
 * Starts providers `concurrency` at a time. Each start has its own deadline; one that fails
 * or hangs is reported and does not hold the others.
 */
export async function warmupProviders(
  entries: readonly ProviderEntry[],
  options: WarmupOptions,
): Promise<WarmupReport[]> {
  const reports: WarmupReport[] = new Array(entries.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < entries.length) {
      const index = next++;
      reports[index] = await startOne(entries[index] as ProviderEntry, options);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(options.concurrency, entries.length)) }, worker);
  await Promise.all(workers);
  return reports;
}

async function startOne(entry: ProviderEntry, options: WarmupOptions): Promise<WarmupReport> {
  const { provider } = entry;
  const started = Date.now();
  entry.state = 'starting';
  const controller = new AbortController();
  const onOuterAbort = (): void => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) onOuterAbort();
  else options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`did not start within ${options.startTimeoutMs} ms`);
        controller.abort(error);
        reject(error);
      }, options.startTimeoutMs);
      if (controller.signal.aborted) reject(controller.signal.reason);
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
    await Promise.race([
      (async () => {
        await provider.start?.(controller.signal);
        entry.specs = checkSpecs(await provider.listTools(), provider.namespace, (message) =>
          options.onWarning(provider.namespace, message),
        );
      })(),
      deadline,
    ]);
    entry.state = 'ready';
    entry.unsubscribe = provider.onToolsChanged?.(() => options.onChanged(entry));
    return {
      provider: provider.namespace,
      kind: provider.kind,
      ok: true,
      tools: entry.specs.length,
      durationMs: Date.now() - started,
    };
  } catch (error) {
    const message = thrownMessage(error);
    entry.state = 'failed';
    entry.error = message;
    entry.specs = [];
    options.onFailed(provider.namespace, message);
    return {
      provider: provider.namespace,
      kind: provider.kind,
      ok: false,
      tools: 0,
      durationMs: Date.now() - started,
      error: message,
    };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}
