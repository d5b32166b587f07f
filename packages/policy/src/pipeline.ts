import { type RegisteredTool, ToolError, type ToolView } from '@toolplane/core';
import type { PolicyConfig } from './config.js';
import { BUILTIN_PROFILES, SUBAGENT_DENY, SUBAGENT_LEAF_DENY } from './profiles.js';
import { TOOL_PERMISSIONS, type ToolPermission, requiredPermissions } from './permissions.js';
import { type RefSet, compileRefs } from './refs.js';

/** The steps of the tool-list pipeline, in the order they run (design document 002). */
export const PIPELINE_STEPS = [
  'profile',
  'provider-profile',
  'allow',
  'provider-allow',
  'agent-allow',
  'agent-provider-allow',
  'channel-allow',
  'permissions',
  'deny',
  'agent-deny',
  'also-allow',
  'agent-also-allow',
  'subagent-deny',
  'leaf-deny',
] as const;

/** One of {@link PIPELINE_STEPS}. */
export type PipelineStep = (typeof PIPELINE_STEPS)[number];

/** What one step did to one tool. */
export interface StepRecord {
  readonly step: PipelineStep;
  /** `kept` (matched an allow list), `removed`, `added` (alsoAllow), `skipped` (the step has no list here). */
  readonly outcome: 'kept' | 'removed' | 'added' | 'skipped' | 'overridden';
  /** The list entry that matched, when one did. */
  readonly rule?: string;
  readonly detail: string;
}

interface NamedRefs {
  readonly name: string;
  readonly refs: RefSet;
}

/** The pipeline compiled for one principal and depth. */
export interface ViewRules {
  readonly profile: NamedRefs;
  readonly providerProfiles: ReadonlyMap<string, NamedRefs>;
  readonly allow: RefSet | undefined;
  readonly providerAllow: ReadonlyMap<string, RefSet>;
  readonly agentAllow: RefSet | undefined;
  readonly agentProviderAllow: ReadonlyMap<string, RefSet>;
  readonly channelAllow: RefSet | undefined;
  /** Granted permissions; undefined means all. */
  readonly permissions: ReadonlySet<ToolPermission> | undefined;
  readonly deny: RefSet;
  readonly agentDeny: RefSet | undefined;
  readonly alsoAllow: RefSet;
  readonly agentAlsoAllow: RefSet | undefined;
  readonly subagentDeny: RefSet | undefined;
  readonly leafDeny: RefSet | undefined;
  readonly agentId: string | undefined;
  readonly channel: string | undefined;
  readonly depth: number;
}

/** Compiled lists shared by every view (compiled once per policy). */
export interface CompiledLists {
  readonly profiles: ReadonlyMap<string, RefSet>;
  readonly allow: RefSet | undefined;
  readonly deny: RefSet;
  readonly alsoAllow: RefSet;
  readonly providerProfiles: ReadonlyMap<string, NamedRefs>;
  readonly providerAllow: ReadonlyMap<string, RefSet>;
  readonly agents: ReadonlyMap<
    string,
    {
      profile: NamedRefs | undefined;
      allow: RefSet | undefined;
      deny: RefSet | undefined;
      alsoAllow: RefSet | undefined;
      byProvider: ReadonlyMap<string, RefSet>;
      permissions: ReadonlySet<ToolPermission> | undefined;
    }
  >;
  readonly channels: ReadonlyMap<string, RefSet>;
  readonly permissions: ReadonlySet<ToolPermission> | undefined;
  readonly subagentDeny: RefSet;
  readonly leafDeny: RefSet;
  readonly maxDepth: number;
  readonly globalProfile: NamedRefs;
}

const optional = (refs: readonly string[] | undefined, where: string): RefSet | undefined =>
  refs && refs.length > 0 ? compileRefs(refs, where) : undefined;

function permissionSet(
  list: readonly ToolPermission[] | undefined,
  where: string,
): ReadonlySet<ToolPermission> | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list))
    throw new ToolError('CONFIG_INVALID', `${where} must be an array of ${TOOL_PERMISSIONS.join(', ')}`);
  for (const permission of list) {
    if (!TOOL_PERMISSIONS.includes(permission))
      throw new ToolError(
        'CONFIG_INVALID',
        `${where}: unknown permission "${String(permission)}"; use ${TOOL_PERMISSIONS.join(', ')}`,
      );
  }
  return new Set(list);
}

function permitted(
  granted: ReadonlySet<ToolPermission> | undefined,
  tool: RegisteredTool,
): ToolPermission | undefined {
  if (!granted) return undefined;
  for (const permission of requiredPermissions(tool.spec)) if (!granted.has(permission)) return permission;
  return undefined;
}

/** Compiles every list of a config; throws `CONFIG_INVALID` with the path of a bad entry. */
export function compileLists(config: PolicyConfig): CompiledLists {
  const profiles = new Map<string, RefSet>();
  for (const [name, refs] of Object.entries({ ...BUILTIN_PROFILES, ...config.profiles })) {
    profiles.set(name, compileRefs(refs, `profiles.${name}`));
  }
  const profile = (name: string, where: string): NamedRefs => {
    const refs = profiles.get(name);
    if (!refs)
      throw new ToolError(
        'CONFIG_INVALID',
        `${where}: unknown profile "${name}"; use one of ${[...profiles.keys()].join(', ')} or define it under profiles`,
      );
    return { name, refs };
  };
  const providerProfiles = new Map<string, NamedRefs>();
  const providerAllow = new Map<string, RefSet>();
  for (const [namespace, provider] of Object.entries(config.byProvider ?? {})) {
    if (provider.profile)
      providerProfiles.set(namespace, profile(provider.profile, `byProvider.${namespace}.profile`));
    const allow = optional(provider.allow, `byProvider.${namespace}.allow`);
    if (allow) providerAllow.set(namespace, allow);
  }
  const agents = new Map<string, CompiledLists['agents'] extends ReadonlyMap<string, infer V> ? V : never>();
  for (const [agentId, agent] of Object.entries(config.agents ?? {})) {
    const byProvider = new Map<string, RefSet>();
    for (const [namespace, entry] of Object.entries(agent.byProvider ?? {})) {
      const allow = optional(entry.allow, `agents.${agentId}.byProvider.${namespace}.allow`);
      if (allow) byProvider.set(namespace, allow);
    }
    agents.set(agentId, {
      profile: agent.profile ? profile(agent.profile, `agents.${agentId}.profile`) : undefined,
      allow: optional(agent.allow, `agents.${agentId}.allow`),
      deny: optional(agent.deny, `agents.${agentId}.deny`),
      alsoAllow: optional(agent.alsoAllow, `agents.${agentId}.alsoAllow`),
      byProvider,
      permissions: permissionSet(agent.permissions, `agents.${agentId}.permissions`),
    });
  }
  const channels = new Map<string, RefSet>();
  for (const [channel, entry] of Object.entries(config.channels ?? {})) {
    const allow = optional(entry.allow, `channels.${channel}.allow`);
    if (allow) channels.set(channel, allow);
  }
  const maxDepth = config.subagents?.maxDepth ?? 1;
  if (!Number.isInteger(maxDepth) || maxDepth < 1)
    throw new ToolError(
      'CONFIG_INVALID',
      `subagents.maxDepth must be an integer >= 1, got ${String(maxDepth)}`,
    );
  return {
    profiles,
    allow: optional(config.allow, 'allow'),
    deny: compileRefs(config.deny, 'deny'),
    alsoAllow: compileRefs(config.alsoAllow, 'alsoAllow'),
    providerProfiles,
    providerAllow,
    agents,
    channels,
    permissions: permissionSet(config.permissions, 'permissions'),
    subagentDeny: compileRefs(config.subagents?.deny ?? SUBAGENT_DENY, 'subagents.deny'),
    leafDeny: compileRefs(config.subagents?.leafDeny ?? SUBAGENT_LEAF_DENY, 'subagents.leafDeny'),
    maxDepth,
    globalProfile: profile(config.profile ?? 'full', 'profile'),
  };
}

/** The pipeline for one view: who is asking and at which depth. */
export function viewRules(lists: CompiledLists, view: ToolView): ViewRules {
  const agentId = view.principal.agentId;
  const channel = view.principal.channel;
  const agent = agentId === undefined ? undefined : lists.agents.get(agentId);
  const depth = view.session.depth;
  return {
    profile: agent?.profile ?? lists.globalProfile,
    providerProfiles: lists.providerProfiles,
    allow: lists.allow,
    providerAllow: lists.providerAllow,
    agentAllow: agent?.allow,
    agentProviderAllow: agent?.byProvider ?? new Map(),
    channelAllow: channel === undefined ? undefined : lists.channels.get(channel),
    permissions: agent?.permissions ?? lists.permissions,
    deny: lists.deny,
    agentDeny: agent?.deny,
    alsoAllow: lists.alsoAllow,
    agentAlsoAllow: agent?.alsoAllow,
    subagentDeny: depth > 0 ? lists.subagentDeny : undefined,
    leafDeny: depth >= lists.maxDepth ? lists.leafDeny : undefined,
    agentId,
    channel,
    depth,
  };
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
