import type { Runtime } from '../runtime/assemble.js';

/**
 * The instructions of the servers the gateway exposes something of: a provider none of whose
 * tools the client sees (the policy hides them) and that has no resources or prompts passed
 * through says nothing, since its instructions would advertise what the client cannot use.
 */
export function exposedInstructions(
  runtime: Runtime,
  visibleTools: readonly string[],
  passedThrough: ReadonlySet<string>,
): string {
  const sections: string[] = [];
  for (const { provider } of runtime.providers) {
    const namespace = provider.namespace;
    const exposed =
      passedThrough.has(namespace) || visibleTools.some((name) => name.startsWith(`${namespace}__`));
    if (!exposed) continue;
    let text: unknown;
    try {
      text = provider.instructions?.();
    } catch {
      continue;
    }
    if (typeof text === 'string' && text.trim())
      sections.push(`## ${namespace}\n${runtime.redact(text.trim())}`);
  }
  return sections.join('\n\n');
}
