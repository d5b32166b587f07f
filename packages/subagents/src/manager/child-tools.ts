import type { RegisteredTool, ToolView } from '@toolplane/core';
import { type Policy, SUBAGENT_DENY, SUBAGENT_LEAF_DENY, createPolicy } from '@toolplane/policy';
import type { AgentToolPolicy } from '../definitions/definition.js';

/** The subagents package's own tools: a leaf (a session at the maximum depth) never sees them. */
export const SPAWNING_TOOL_PATTERNS: readonly string[] = ['agent__*', 'subagents__*'];

/** Which lists the children's tool lists are cut by (policy tool references). */
export interface ChildToolLists {
  /** Denied at every depth > 0 (default: policy's `SUBAGENT_DENY`). */
  readonly alwaysDenied?: readonly string[];
  /** Denied at the maximum depth (default: policy's `SUBAGENT_LEAF_DENY` plus `agent__*`, `subagents__*`). */
  readonly leafDenied?: readonly string[];
}

/**
 * Computes a child's tool list with the policy package: what the parent sees, narrowed by the
 * definition's allow/deny, the always-denied list and, at the maximum depth, the leaf list.
 * One compiled policy per tool policy object.
 */
export class ChildToolPolicies {
  private readonly compiled = new WeakMap<object, Policy>();
  private readonly plain: Policy;

  constructor(
    private readonly maxDepth: number,
    private readonly lists: ChildToolLists = {},
  ) {
    this.plain = this.compile({});
  }

  private compile(tools: AgentToolPolicy): Policy {
    return createPolicy({
      ...(tools.allow && tools.allow.length > 0 ? { allow: [...tools.allow, 'group:toolplane'] } : {}),
      ...(tools.deny ? { deny: tools.deny } : {}),
      subagents: {
        maxDepth: this.maxDepth,
        deny: this.lists.alwaysDenied ?? SUBAGENT_DENY,
        leafDeny: this.lists.leafDenied ?? [...SUBAGENT_LEAF_DENY, ...SPAWNING_TOOL_PATTERNS],
      },
    });
  }

  private policyFor(tools: AgentToolPolicy | undefined): Policy {
    if (!tools) return this.plain;
    let policy = this.compiled.get(tools);
    if (!policy) {
      policy = this.compile(tools);
      this.compiled.set(tools, policy);
    }
    return policy;
  }

  /** The tools of `candidates` the child (of `view`) may see, for a definition's tool policy. */
  filter(
    candidates: readonly RegisteredTool[],
    view: ToolView,
    tools: AgentToolPolicy | undefined,
  ): readonly RegisteredTool[] {
    return this.policyFor(tools).filter(candidates, view);
  }
}
