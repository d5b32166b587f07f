import type { ToolView } from '@toolplane/core';
import type { Runtime } from './assemble.js';

/** A provider that offers tools of which the policy lets a view see none. */
export interface HiddenProvider {
  readonly namespace: string;
  /** How many tools it offers. */
  readonly tools: number;
  /** The step that hid its first tool: `profile "coding"`, `deny [github__*]`. */
  readonly why: string;
}

/**
 * Providers whose every tool the policy hides from `view` (a profile such as `coding` keeps
 * only built-in tools): a list that leaves a whole server out says so instead of looking as if
 * the server offered nothing.
 */
export function hiddenProviders(runtime: Runtime, view: ToolView): HiddenProvider[] {
  const all = runtime.orchestrator.listRegistered();
  const visible = new Set(runtime.orchestrator.listRegistered(view).map((tool) => tool.name));
  const out: HiddenProvider[] = [];
  for (const { provider } of runtime.providers) {
    const own = all.filter((tool) => tool.provider.namespace === provider.namespace);
    if (own.length === 0 || own.some((tool) => visible.has(tool.name))) continue;
    const step = runtime.policy.explain(own[0] as (typeof own)[number], view).decidedBy;
    const why = step
      ? `${step.step}${step.rule ? ` [${step.rule}]` : ''}: ${step.detail}`
      : 'no step allows them';
    out.push({ namespace: provider.namespace, tools: own.length, why });
  }
  return out;
}

/** The line that says so: `policy hides all 12 tools of provider everything (profile: ...)`. */
export function hiddenProviderLine(hidden: HiddenProvider): string {
  return `the policy hides all ${hidden.tools} tool(s) of provider ${hidden.namespace} (${hidden.why}); \`toolplane policy explain <tool>\` says why, step by step`;
}
