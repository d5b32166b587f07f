import { type ToolResult, fail } from '@toolplane/core';
import type { ToolRegistry } from './registry.js';
import { cutText } from '../output/text-bytes.js';

/**
 * The answer for a name that resolves to nothing: `PROVIDER_UNAVAILABLE` with the start error
 * when the name belongs to a provider that failed to start, else `TOOL_NOT_FOUND` with the
 * closest names.
 */
export function notFound(registry: ToolRegistry, name: string): ToolResult {
  const failed = registry.entries.find(
    (entry) => entry.state === 'failed' && name.startsWith(`${entry.provider.namespace}__`),
  );
  if (failed) {
    return fail(
      'PROVIDER_UNAVAILABLE',
      `provider "${failed.provider.namespace}" failed to start (${failed.error}); its tools are unavailable`,
    );
  }
  const suggestions = registry.suggest(name);
  const hint =
    suggestions.length > 0
      ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?`
      : ' List the tools to see what exists.';
  const shown = name.length > 200 ? `${cutText(name, 200)}... (${name.length} characters)` : name;
  return fail('TOOL_NOT_FOUND', `there is no tool named "${shown}".${hint}`, { details: { suggestions } });
}
