import type { PermissionMode } from '@toolplane/core';
import type { ToolPermission } from './permissions.js';
import type { FindingCategory } from './shell/index.js';

/**
 * A reference to tools in allow, deny and profile lists: an exact public name (`read`), a
 * name pattern with `*` (`github__*`), or a group (`group:fs`, `group:mcp:github`).
 */
export type ToolRef = string;

/** Overrides for the tools of one provider (keyed by provider namespace). */
export interface ProviderPolicy {
  /** Replaces the global (or agent) profile for this provider's tools (step 2). */
  readonly profile?: string;
  /** Narrows this provider's tools (step 4). */
  readonly allow?: readonly ToolRef[];
}

/** Rules for one agent (keyed by `principal.agentId`). */
export interface AgentPolicy {
  /** Replaces the global profile for this agent (step 1). */
  readonly profile?: string;
  /** Replaces the global permission set for this agent. */
  readonly permissions?: readonly ToolPermission[];
  /** Step 5. */
  readonly allow?: readonly ToolRef[];
  /** Applied after the global deny list. */
  readonly deny?: readonly ToolRef[];
  /** Added back after the deny lists (union). */
  readonly alsoAllow?: readonly ToolRef[];
  /** Step 6: per provider namespace. */
  readonly byProvider?: Readonly<Record<string, { readonly allow?: readonly ToolRef[] }>>;
}

/** Limits for child agents (sessions of depth > 0). */
export interface SubagentPolicy {
  /** Denied at every depth > 0. Defaults to design document 002's always-denied list. */
  readonly deny?: readonly ToolRef[];
  /** Denied at the maximum depth (leaf agents cannot spawn). Defaults to 002's leaf list. */
  readonly leafDeny?: readonly ToolRef[];
  /** Maximum spawn depth; a session at this depth is a leaf. Default 1. */
  readonly maxDepth?: number;
}

/** Rules for command lines of shell-like tools (`spec.commandArgument`), matched per simple command. */
export interface CommandRulesConfig {
  /** Patterns run without asking (`git status`, `npm run *`). */
  readonly allow?: readonly string[];
  /** Patterns always asked, even when an allow rule matches. */
  readonly ask?: readonly string[];
  /** Patterns always denied (flags match in any order and clustering). */
  readonly deny?: readonly string[];
  /** Default deny categories to switch off (not recommended). */
  readonly disableDefaultRules?: readonly FindingCategory[];
  /**
   * Paths a shell command never writes without asking, in every mode (bypass included):
   * replaces `DEFAULT_PROTECTED_PATHS` (spread it to add to it; `[]` turns the check off). A
   * pattern without a leading `/` matches at any depth; `*` within a segment, `**` across.
   */
  readonly protectedPaths?: readonly string[];
}

/**
 * Everything a policy decides from. Plain JSON, so it can live in a config file.
 *
 * @example
 * const config: PolicyConfig = {
 *   profile: 'coding',
 *   deny: ['github__delete_*'],
 *   agents: { reviewer: { allow: ['group:fs', 'group:web'] } },
 *   commands: { allow: ['git status', 'git diff *', 'npm test'] },
 * };
 */
export interface PolicyConfig {
  /** Global profile (step 1): `full` (default), `coding`, `messaging`, `minimal` or one from `profiles`. */
  readonly profile?: string;
  /** User-defined profiles: name -> tool references. May redefine the built-in ones. */
  readonly profiles?: Readonly<Record<string, readonly ToolRef[]>>;
  /** User-defined groups: name -> tool references, used as `group:<name>`. */
  readonly groups?: Readonly<Record<string, readonly ToolRef[]>>;
  /** Step 3: the global allow list. Absent or empty means no restriction. */
  readonly allow?: readonly ToolRef[];
  /** Global deny list. */
  readonly deny?: readonly ToolRef[];
  /** Global alsoAllow list: added back after the deny lists. */
  readonly alsoAllow?: readonly ToolRef[];
  /** Steps 2 and 4, keyed by provider namespace. */
  readonly byProvider?: Readonly<Record<string, ProviderPolicy>>;
  /** Steps 5 and 6 plus agent deny/alsoAllow, keyed by agent id. */
  readonly agents?: Readonly<Record<string, AgentPolicy>>;
  /**
   * Permission set (design document 003): tools needing a permission outside it are hidden.
   * Absent means all four (`read`, `write`, `execute`, `network`).
   */
  readonly permissions?: readonly ToolPermission[];
  /** Step 7: allow lists per channel or group chat (`principal.channel`). */
  readonly channels?: Readonly<Record<string, { readonly allow?: readonly ToolRef[] }>>;
  readonly subagents?: SubagentPolicy;
  readonly commands?: CommandRulesConfig;
  /** Tools allowed without asking in every mode but plan's write ban (read-only tools always are). */
  readonly autoAllow?: readonly ToolRef[];
  /** Tools always asked (in every mode, bypass included). */
  readonly alwaysAsk?: readonly ToolRef[];
  /** Permission mode of sessions that do not name one. Default `default`. */
  readonly mode?: PermissionMode;
  /** Report-only: decisions are computed and reported, nothing is denied or hidden. */
  readonly shadow?: boolean;
}
