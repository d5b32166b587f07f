import { checkSpecs } from './check-specs.js';
import type { ProviderEntry, ToolRegistry } from './registry.js';
import { thrownMessage } from './thrown.js';

/** A provider and its state, as `providers()` reports it. */
export interface ProviderState {
  readonly namespace: string;
  readonly kind: string;
  readonly state: ProviderEntry['state'];
  readonly tools: number;
  readonly error?: string;
}

/** Every provider with its state, tool count and start error. */
export function providerStates(registry: ToolRegistry): ProviderState[] {
  return registry.entries.map((entry) => ({
    namespace: entry.provider.namespace,
    kind: entry.provider.kind,
    state: entry.state,
    tools: entry.specs.length,
    ...(entry.error ? { error: entry.error } : {}),
  }));
}

/** Instructions of every ready provider, then each tool's own notes, for the system prompt. */
export function combinedInstructions(registry: ToolRegistry): string {
  const sections: string[] = [];
  for (const entry of registry.entries) {
    if (entry.state !== 'ready') continue;
    const text = entry.provider.instructions?.()?.trim();
    if (text) sections.push(`## ${entry.provider.namespace}\n${text}`);
  }
  const toolNotes = registry
    .all()
    .filter((route) => route.spec.instructions)
    .map((route) => `- ${route.name}: ${route.spec.instructions}`);
  if (toolNotes.length > 0) sections.push(`## Tool notes\n${toolNotes.join('\n')}`);
  return sections.join('\n\n');
}

/** Re-lists a provider's tools after it said its list changed (a failed provider that lists is ready again). */
export async function refreshProvider(entry: ProviderEntry, warn: (message: string) => void): Promise<void> {
  await Promise.resolve();
  try {
    entry.specs = checkSpecs(await entry.provider.listTools(), entry.provider.namespace, warn);
    if (entry.state === 'failed') entry.state = 'ready';
  } catch (error) {
    warn(`refreshing the tool list failed: ${thrownMessage(error)}`);
  }
}
