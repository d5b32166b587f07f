import type { ToolProvider } from '@toolplane/core';

/**
 * What a provider reported while it started and still serves: an OpenAPI provider's import
 * warnings (operations it skipped, such as one whose parameter schema is no JSON Schema).
 * Providers without `warnings()` have none.
 */
export function providerWarnings(provider: ToolProvider): readonly string[] {
  const warnings = (provider as { warnings?: unknown }).warnings;
  if (typeof warnings !== 'function') return [];
  try {
    const list: unknown = warnings.call(provider);
    return Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === 'string') : [];
  } catch {
    return [];
  }
}

/** `provider api: skipped GET /bad: ...`, one line per warning of every provider. */
export function warningLines(providers: readonly { provider: ToolProvider }[]): string[] {
  return providers.flatMap(({ provider }) =>
    providerWarnings(provider).map((warning) => `provider ${provider.namespace}: ${warning}`),
  );
}
