import { ToolError, type ToolView } from '@toolplane/core';
import type { PolicyConfig } from './config.js';
import { TOOL_PERMISSIONS, type ToolPermission } from './permissions.js';
import { BUILTIN_PROFILES, SUBAGENT_DENY, SUBAGENT_LEAF_DENY } from './profiles.js';
import { type RefSet, compileRefs } from './refs.js';

export interface NamedRefs {
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
