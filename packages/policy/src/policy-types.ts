import type { PermissionMode, RegisteredTool, ToolCall, ToolView } from '@toolplane/core';
import type { AllowList } from './allow-list.js';
import type { PolicyConfig } from './config.js';
import type { PolicyDecision } from './decision.js';
import type { Explanation } from './explain.js';
import type { PinStore } from './pin-store.js';

/** What `filter` hid in shadow mode, or what `check` would have refused. */
export interface ShadowEvent {
  readonly kind: 'hide' | 'deny' | 'ask';
  readonly tools: readonly string[];
  readonly reason: string;
  readonly view: ToolView;
}

/** Options of {@link createPolicy}: where approvals and pins are kept. */
export interface PolicyOptions {
  /** Grows with `allow-always` answers; in memory when absent. */
  readonly allowList?: AllowList;
  /** Definition pins of MCP/REST tools; in memory when absent. */
  readonly pins?: PinStore;
  /** Called in shadow mode with what would have been hidden. */
  readonly onShadow?: (event: ShadowEvent) => void;
}

/** A compiled policy: what a principal sees, why, and whether a call may run. */
export interface Policy {
  readonly config: PolicyConfig;
  readonly allowList: AllowList;
  readonly pins: PinStore;
  /** The tools this view may see, in their order (all of them in shadow mode). */
  filter(tools: readonly RegisteredTool[], view: ToolView): readonly RegisteredTool[];
  /** Why a tool is or is not visible to a view; uses the tools last given to `filter` or `setTools`. */
  explain(tool: string | RegisteredTool, view: ToolView): Explanation;
  /** Decides one call: allow, ask or deny, with the reason. Never throws; a failure to decide denies. */
  check(call: ToolCall): Promise<PolicyDecision>;
  /**
   * The same decision without a promise when no I/O is needed (the per-call fast path of the
   * gate); a promise when it must load stores or the shell grammar. May throw.
   */
  decide(call: ToolCall): PolicyDecision | Promise<PolicyDecision>;
  /**
   * Records an approval: pins the tool's definition, and for `allow-always` adds the suggested
   * rules to the allow-list.
   */
  remember(
    call: ToolCall,
    decision: PolicyDecision,
    answer: 'allow-once' | 'allow-always' | 'auto',
  ): Promise<void>;
  /** Tells the policy the full registry (for `explain` by name). */
  setTools(tools: readonly RegisteredTool[]): void;
  /** The effective permission mode of a session (children never exceed their parent). */
  modeOf(view: ToolView): PermissionMode;
}
