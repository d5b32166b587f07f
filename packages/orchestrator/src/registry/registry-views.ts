import { type ToolSpec, stableStringify } from '@toolplane/core';
import { kindOf } from '../check-options.js';
import { checkSpecs } from './check-specs.js';
import type { ProviderEntry, ToolRegistry } from './registry.js';
import { thrownMessage } from '../call/thrown.js';

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
export function combinedInstructions(
  registry: ToolRegistry,
  warn: (provider: string, message: string) => void,
): string {
  const sections: string[] = [];
  for (const entry of registry.entries) {
    if (entry.state !== 'ready') continue;
    const text = providerInstructions(entry, warn)?.trim();
    if (text) sections.push(`## ${entry.provider.namespace}\n${text}`);
  }
  const toolNotes = registry
    .all()
    .filter((route) => typeof route.spec.instructions === 'string' && route.spec.instructions)
    .map((route) => `- ${route.name}: ${route.spec.instructions}`);
  if (toolNotes.length > 0) sections.push(`## Tool notes\n${toolNotes.join('\n')}`);
  return sections.join('\n\n');
}

/** A provider's instructions; one whose `instructions()` throws or answers no string is left out, with a warning. */
function providerInstructions(
  entry: ProviderEntry,
  warn: (provider: string, message: string) => void,
): string | undefined {
  const { provider } = entry;
  if (typeof provider.instructions !== 'function') return undefined;
  let text: unknown;
  try {
    text = provider.instructions();
  } catch (error) {
    warn(
      provider.namespace,
      `provider "${provider.namespace}": instructions() threw: ${thrownMessage(error)}; left out of instructions()`,
    );
    return undefined;
  }
  if (text === undefined || typeof text === 'string') return text;
  const kind = kindOf(text);
  warn(
    provider.namespace,
    `provider "${provider.namespace}": instructions() answered ${kind === 'object' ? 'an object' : kind}, not a string; left out of instructions()`,
  );
  return undefined;
}

/**
 * Re-lists a provider's tools after it said its list changed (a failed provider that lists is
 * ready again). A listing that throws, answers garbage or does not answer within `timeoutMs`
 * keeps the previous list, with a warning. Answers whether anything changed: a list the same as
 * before (a server that announces a change it did not make) changes nothing.
 */
export async function refreshProvider(
  entry: ProviderEntry,
  warn: (message: string) => void,
  timeoutMs: number,
): Promise<boolean> {
  await Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const namespace = entry.provider.namespace;
  const gaveUp = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `re-listing the tools of "${namespace}" did not answer within ${timeoutMs} ms; the previous list is kept`,
          ),
        ),
      timeoutMs,
    );
    // a re-list left hanging must not keep the process alive after close()
    timer.unref?.();
  });
  try {
    const listed = await Promise.race([Promise.resolve().then(() => entry.provider.listTools()), gaveUp]);
    const specs = checkSpecs(listed, namespace, warn);
    const revived = entry.state === 'failed';
    if (revived) entry.state = 'ready';
    if (!revived && sameSpecs(entry.specs, specs)) return false;
    entry.specs = specs;
    return true;
  } catch (error) {
    warn(`refreshing the tool list failed: ${thrownMessage(error)}`);
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Whether two checked tool lists are the same (a spec that cannot be serialized counts as changed). */
function sameSpecs(before: readonly ToolSpec[], after: readonly ToolSpec[]): boolean {
  if (before.length !== after.length) return false;
  try {
    return stableStringify(before) === stableStringify(after);
  } catch {
    return false;
  }
}
