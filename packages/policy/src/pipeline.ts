import type { RegisteredTool } from '@toolplane/core';
import { type ToolPermission, requiredPermissions } from './permissions.js';
import type { PipelineStep, StepRecord } from './pipeline-steps.js';
import type { RefSet } from './refs.js';
import type { ViewRules } from './view-rules.js';

function permitted(
  granted: ReadonlySet<ToolPermission> | undefined,
  tool: RegisteredTool,
): ToolPermission | undefined {
  if (!granted) return undefined;
  for (const permission of requiredPermissions(tool.spec)) if (!granted.has(permission)) return permission;
  return undefined;
}

/** Fast path: whether the pipeline lets a principal see a tool. */
export function isVisible(rules: ViewRules, tool: RegisteredTool, groups: readonly string[]): boolean {
  const name = tool.name;
  const namespace = tool.provider.namespace;
  let allowed = (rules.providerProfiles.get(namespace) ?? rules.profile).refs.has(name, groups);
  if (allowed && rules.allow) allowed = rules.allow.has(name, groups);
  if (allowed) {
    const providerAllow = rules.providerAllow.get(namespace);
    if (providerAllow) allowed = providerAllow.has(name, groups);
  }
  if (allowed && rules.agentAllow) allowed = rules.agentAllow.has(name, groups);
  if (allowed) {
    const agentProvider = rules.agentProviderAllow.get(namespace);
    if (agentProvider) allowed = agentProvider.has(name, groups);
  }
  if (allowed && rules.channelAllow) allowed = rules.channelAllow.has(name, groups);
  if (rules.permissions && permitted(rules.permissions, tool) !== undefined) return false;
  if (rules.deny.has(name, groups) || rules.agentDeny?.has(name, groups)) return false;
  if (!allowed) {
    allowed = rules.alsoAllow.has(name, groups) || (rules.agentAlsoAllow?.has(name, groups) ?? false);
  }
  if (!allowed) return false;
  if (rules.subagentDeny?.has(name, groups)) return false;
  if (rules.leafDeny?.has(name, groups)) return false;
  return true;
}

function allowStep(
  records: StepRecord[],
  step: PipelineStep,
  refs: RefSet | undefined,
  name: string,
  groups: readonly string[],
  what: string,
  alive: boolean,
): boolean {
  if (!refs) {
    records.push({ step, outcome: 'skipped', detail: `no ${what}` });
    return alive;
  }
  if (!alive) {
    records.push({ step, outcome: 'skipped', detail: 'already removed' });
    return false;
  }
  const rule = refs.find(name, groups);
  records.push(
    rule
      ? { step, outcome: 'kept', rule, detail: `${what} includes it` }
      : { step, outcome: 'removed', detail: `not in ${what}` },
  );
  return rule !== undefined;
}

function denyStep(
  records: StepRecord[],
  step: PipelineStep,
  refs: RefSet | undefined,
  name: string,
  groups: readonly string[],
  what: string,
): boolean {
  const rule = refs?.find(name, groups);
  if (rule) {
    records.push({ step, outcome: 'removed', rule, detail: `${what} matches` });
    return true;
  }
  records.push({
    step,
    outcome: 'skipped',
    detail: refs && refs.size > 0 ? `${what} does not match` : `no ${what}`,
  });
  return false;
}

/**
 * Runs the pipeline for one tool and records what every step did; the answer is the same as
 * {@link isVisible}. Deny lists beat alsoAllow (see the README for why).
 */
export function traceVisibility(
  rules: ViewRules,
  tool: RegisteredTool,
  groups: readonly string[],
): { visible: boolean; steps: StepRecord[] } {
  const steps: StepRecord[] = [];
  const name = tool.name;
  const namespace = tool.provider.namespace;
  const providerProfile = rules.providerProfiles.get(namespace);
  let alive: boolean;
  if (providerProfile) {
    steps.push({
      step: 'profile',
      outcome: 'overridden',
      detail: `profile "${rules.profile.name}" replaced for provider "${namespace}"`,
    });
    alive = allowStep(
      steps,
      'provider-profile',
      providerProfile.refs,
      name,
      groups,
      `profile "${providerProfile.name}"`,
      true,
    );
  } else {
    alive = allowStep(
      steps,
      'profile',
      rules.profile.refs,
      name,
      groups,
      `profile "${rules.profile.name}"`,
      true,
    );
    steps.push({
      step: 'provider-profile',
      outcome: 'skipped',
      detail: `no profile override for provider "${namespace}"`,
    });
  }
  alive = allowStep(steps, 'allow', rules.allow, name, groups, 'global allow list', alive);
  alive = allowStep(
    steps,
    'provider-allow',
    rules.providerAllow.get(namespace),
    name,
    groups,
    `allow list of provider "${namespace}"`,
    alive,
  );
  alive = allowStep(
    steps,
    'agent-allow',
    rules.agentAllow,
    name,
    groups,
    `allow list of agent "${rules.agentId ?? '(none)'}"`,
    alive,
  );
  alive = allowStep(
    steps,
    'agent-provider-allow',
    rules.agentProviderAllow.get(namespace),
    name,
    groups,
    `allow list of agent "${rules.agentId ?? '(none)'}" for provider "${namespace}"`,
    alive,
  );
  alive = allowStep(
    steps,
    'channel-allow',
    rules.channelAllow,
    name,
    groups,
    `allow list of channel "${rules.channel ?? '(none)'}"`,
    alive,
  );
  let blocked = false;
  if (!rules.permissions)
    steps.push({ step: 'permissions', outcome: 'skipped', detail: 'no permission set' });
  else {
    const missing = permitted(rules.permissions, tool);
    const needs = requiredPermissions(tool.spec).join(', ');
    const granted = [...rules.permissions].join(', ') || 'nothing';
    if (missing) {
      blocked = true;
      steps.push({
        step: 'permissions',
        outcome: 'removed',
        detail: `needs ${needs}; the permission set grants ${granted}`,
      });
    } else
      steps.push({
        step: 'permissions',
        outcome: alive ? 'kept' : 'skipped',
        detail: `needs ${needs}; granted`,
      });
  }
  const deniedGlobal = denyStep(steps, 'deny', rules.deny, name, groups, 'global deny list');
  const deniedAgent = denyStep(
    steps,
    'agent-deny',
    rules.agentDeny,
    name,
    groups,
    `deny list of agent "${rules.agentId ?? '(none)'}"`,
  );
  const denied = deniedGlobal || deniedAgent || blocked;
  for (const [step, refs, what] of [
    ['also-allow', rules.alsoAllow, 'global alsoAllow'],
    ['agent-also-allow', rules.agentAlsoAllow, `alsoAllow of agent "${rules.agentId ?? '(none)'}"`],
  ] as const) {
    const rule = refs?.find(name, groups);
    if (!rule)
      steps.push({
        step,
        outcome: 'skipped',
        detail: refs && refs.size > 0 ? `${what} does not match` : `no ${what}`,
      });
    else if (denied)
      steps.push({ step, outcome: 'skipped', rule, detail: `${what} matches, but a deny list wins` });
    else if (alive) steps.push({ step, outcome: 'kept', rule, detail: `${what} matches (already allowed)` });
    else {
      alive = true;
      steps.push({ step, outcome: 'added', rule, detail: `${what} adds it back` });
    }
  }
  if (denied) alive = false;
  if (rules.subagentDeny) {
    if (
      denyStep(
        steps,
        'subagent-deny',
        rules.subagentDeny,
        name,
        groups,
        `subagent deny list (depth ${rules.depth})`,
      )
    )
      alive = false;
  } else steps.push({ step: 'subagent-deny', outcome: 'skipped', detail: 'not a subagent (depth 0)' });
  if (rules.leafDeny) {
    if (
      denyStep(
        steps,
        'leaf-deny',
        rules.leafDeny,
        name,
        groups,
        `leaf deny list (depth ${rules.depth} is the maximum)`,
      )
    )
      alive = false;
  } else steps.push({ step: 'leaf-deny', outcome: 'skipped', detail: 'not at the maximum depth' });
  return { visible: alive, steps };
}
