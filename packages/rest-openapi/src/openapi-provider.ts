import {
  PROVIDER_SPEC_VERSION,
  type ToolContext,
  type ToolResult,
  type ToolSpec,
  ToolError,
  fail,
} from '@toolplane/core';
import { type ImportOptions, type ImportResult, importOpenApi } from './openapi/import.js';
import { diagnosticWarning } from './openapi/diagnostics.js';
import type { OpenApiSource } from './openapi/load.js';
import { type RestProvider, type RestProviderOptions, createRestProvider } from './rest-provider.js';

/** The import's warnings without those the REST provider reports from the environment as it is. */
function importWarnings(result: ImportResult | undefined): string[] {
  if (!result) return [];
  const live = new Set(
    result.diagnostics
      .filter((item) => item.code === 'BASE_URL_REQUIRED' || item.code === 'TOKEN_ORIGIN_NOT_ALLOWED')
      .map(diagnosticWarning),
  );
  return result.warnings.filter((warning) => !live.has(warning));
}

/** Options of {@link createOpenApiProvider}: the importer's and the provider's. */
export type OpenApiProviderOptions = Omit<ImportOptions, 'namespace'> & Omit<RestProviderOptions, 'tools'>;

/** A provider over an OpenAPI document, imported when it starts. */
export interface OpenApiProvider extends RestProvider {
  /**
   * What the import reported (empty before `start()`), and what keeps calls from working with
   * the environment as it is now (an unset base URL variable, a refused token origin).
   */
  warnings(): readonly string[];
  /** The import result, once started. */
  imported(): ImportResult | undefined;
}

/**
 * Imports an OpenAPI document in `start()` and serves its operations as REST tools. Until then
 * it lists no tools and calls fail with `PROVIDER_UNAVAILABLE`.
 *
 * @example
 * const github = createOpenApiProvider('./api.github.com.json', {
 *   namespace: 'github',
 *   include: { tags: ['issues'] },
 * });
 * await github.start?.(AbortSignal.timeout(30_000));
 */
export function createOpenApiProvider(
  source: OpenApiSource,
  options: OpenApiProviderOptions,
): OpenApiProvider {
  let inner: RestProvider | undefined;
  let result: ImportResult | undefined;
  let starting: Promise<void> | undefined;
  let closed = false;
  /** Aborted by close(): an import still fetching the document stops with it. */
  const closing = new AbortController();
  const closedMessage = `OpenAPI provider ${options.namespace} is closed`;
  const notStarted = (): ToolResult =>
    closed
      ? fail('PROVIDER_UNAVAILABLE', closedMessage, { retryable: false })
      : fail(
          'PROVIDER_UNAVAILABLE',
          `OpenAPI provider ${options.namespace} has not been started (its document is imported in start())`,
        );
  const closedWhileStarting = (cause?: unknown): ToolError =>
    new ToolError(
      'PROVIDER_UNAVAILABLE',
      `OpenAPI provider ${options.namespace} was closed while it started, so its document was not imported; create a new provider to use it`,
      { retryable: false, ...(cause === undefined ? {} : { cause }) },
    );
  return {
    specificationVersion: PROVIDER_SPEC_VERSION,
    kind: 'rest',
    namespace: options.namespace,
    prefixNames: true,
    get toolNames(): readonly string[] {
      return inner?.toolNames ?? [];
    },
    start(signal: AbortSignal): Promise<void> {
      if (closed)
        return Promise.reject(new ToolError('PROVIDER_UNAVAILABLE', closedMessage, { retryable: false }));
      starting ??= (async () => {
        signal.throwIfAborted();
        try {
          result = await importOpenApi(source, {
            ...options,
            signal: AbortSignal.any([signal, closing.signal]),
          });
        } catch (error) {
          throw closed ? closedWhileStarting(error) : error;
        }
        if (closed) throw closedWhileStarting();
        signal.throwIfAborted();
        inner = createRestProvider({ ...options, tools: result.tools });
      })().catch((error: unknown) => {
        // a failed start (the document's server was down, the start was cancelled) may be retried
        starting = undefined;
        throw error;
      });
      return starting;
    },
    listTools: (): readonly ToolSpec[] => inner?.listTools() ?? [],
    execute: (name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> =>
      inner ? inner.execute(name, args, ctx) : Promise.resolve(notStarted()),
    instructions: () => options.instructions,
    secretValues: () => inner?.secretValues() ?? [],
    // base URL and token origin lines are the live ones of the REST provider, read from its env
    warnings: () => [...importWarnings(result), ...(inner?.warnings() ?? [])],
    imported: () => result,
    async close() {
      closed = true;
      closing.abort();
      await inner?.close();
    },
  };
}
