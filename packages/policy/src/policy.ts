import {
  type PermissionMode,
  type RegisteredTool,
  type ToolCall,
  type ToolView,
  isReadOnly,
  riskOf,
} from '@toolplane/core';
import { createAllowList } from './allow-list.js';
import { decideCommand } from './command-decision.js';
import { compileCommandRules } from './command-rules-config.js';
import type { PolicyConfig } from './config.js';
import { type DecisionContext, makeDecision } from './decision-context.js';
import type { PolicyDecision } from './decision.js';
import { type Explanation, decidingStep, formatExplanation } from './explain.js';
import { toolGroups } from './groups.js';
import { createModeTracker } from './modes.js';
import { type PinState, createPinStore } from './pin-store.js';
import { isVisible, traceVisibility } from './pipeline.js';
import type { Policy, PolicyOptions } from './policy-types.js';
import { type RefSet, compileRefs } from './refs.js';
import { type CompiledLists, type ViewRules, compileLists, viewRules } from './view-rules.js';

const NO_GROUPS: readonly string[] = [];

function viewKey(view: ToolView, lists: CompiledLists): string {
  const depth = view.session.depth;
  const depthClass = depth <= 0 ? 0 : depth >= lists.maxDepth ? 2 : 1;
  return `${view.principal.agentId ?? ''}\u0000${view.principal.channel ?? ''}\u0000${depthClass}`;
}

/**
 * Compiles a policy. Throws `CONFIG_INVALID` (with the path of the bad entry) for unknown
 * profiles, empty references or bad command patterns.
 *
 * @example
 * const policy = createPolicy({ profile: 'coding', deny: ['github__delete_*'] });
 * const visible = policy.filter(registry, { principal: { agentId: 'coder' }, session: { id: 's1', depth: 0 } });
 */
export function createPolicy(config: PolicyConfig, options: PolicyOptions = {}): Policy {
  const lists = compileLists(config);
  const commandRules = compileCommandRules(config);
  const userGroups = new Map<string, RefSet>();
  for (const [name, refs] of Object.entries(config.groups ?? {}))
    userGroups.set(name, compileRefs(refs, `groups.${name}`));
  const autoAllow = compileRefs(config.autoAllow, 'autoAllow');
  const alwaysAsk = compileRefs(config.alwaysAsk, 'alwaysAsk');
  const allowList = options.allowList ?? createAllowList();
  const commandContext = { rules: commandRules, allowList };
  const pins = options.pins ?? createPinStore();
  const resolveMode = createModeTracker(config.mode ?? 'default');
  const shadow = config.shadow === true;
  const viewCache = new Map<string, ViewRules>();
  const groupCache = new WeakMap<RegisteredTool, readonly string[]>();
  let known: readonly RegisteredTool[] = [];
  let storesLoaded = false;
  const filtered = new WeakMap<readonly RegisteredTool[], WeakMap<ViewRules, readonly RegisteredTool[]>>();
  let knownByName: Map<string, RegisteredTool> | undefined;

  const groupsOf = (tool: RegisteredTool): readonly string[] => {
    // Most tools need no extra groups: use the spec's own array, no cache entry.
    const own = tool.spec.groups ?? NO_GROUPS;
    const kind = tool.provider.kind;
    if (userGroups.size === 0 && ((kind !== 'mcp' && kind !== 'rest') || own.includes(kind))) {
      if (kind !== 'mcp' && kind !== 'rest') return own;
      if (own.includes(`${kind}:${tool.provider.namespace}`)) return own;
    }
    let groups = groupCache.get(tool);
    if (!groups) {
      groups = toolGroups(tool, userGroups);
      groupCache.set(tool, groups);
    }
    return groups;
  };
  const byPrincipal = new WeakMap<object, Map<string, ViewRules>>();
  const rulesFor = (view: ToolView): ViewRules => {
    // Keyed first by the principal object (the same for every call of a session), then by depth class.
    const depthClass = view.session.depth <= 0 ? '0' : view.session.depth >= lists.maxDepth ? '2' : '1';
    let perDepth = byPrincipal.get(view.principal);
    if (!perDepth) {
      perDepth = new Map();
      byPrincipal.set(view.principal, perDepth);
    }
    let rules = perDepth.get(depthClass);
    if (!rules) {
      const key = viewKey(view, lists);
      rules = viewCache.get(key);
      if (!rules) {
        rules = viewRules(lists, view);
        if (viewCache.size > 1000) viewCache.clear();
        viewCache.set(key, rules);
      }
      perDepth.set(depthClass, rules);
    }
    return rules;
  };
  const setTools = (tools: readonly RegisteredTool[]): void => {
    if (tools !== known) {
      known = tools;
      knownByName = undefined;
    }
  };

  const explain = (tool: string | RegisteredTool, view: ToolView): Explanation => {
    let registered: RegisteredTool | undefined;
    if (typeof tool === 'string') {
      knownByName ??= new Map(known.map((entry) => [entry.name, entry]));
      registered = knownByName.get(tool);
    } else registered = tool;
    const name = typeof tool === 'string' ? tool : tool.name;
    if (!registered) {
      return {
        tool: name,
        known: false,
        visible: false,
        steps: [],
        text: `${name}: no such tool is registered (check the name, or whether its provider started)`,
      };
    }
    const traced = traceVisibility(viewRules(lists, view), registered, groupsOf(registered));
    const decidedBy = decidingStep(traced.visible, traced.steps);
    return {
      tool: name,
      known: true,
      visible: traced.visible,
      steps: traced.steps,
      ...(decidedBy ? { decidedBy } : {}),
      text: formatExplanation(name, view, traced.visible, traced.steps, decidedBy),
    };
  };

  const modeOf = (view: ToolView): PermissionMode => resolveMode(view.session);

  const loadStores = async (): Promise<void> => {
    await Promise.all([allowList.load(), pins.load()]);
    storesLoaded = true;
  };

  /** Applies the definition pin: a changed definition turns any non-deny decision into `ask`. */
  const withPin = (decision: PolicyDecision, tool: RegisteredTool, pin: PinState): PolicyDecision => {
    if (decision.decision === 'deny' || pin.status !== 'changed') return decision;
    return {
      ...decision,
      decision: 'ask',
      source: 'pin',
      reason: `the definition of ${tool.name} changed since it was approved (pinned ${pin.pinned.slice(0, 12)}, now ${pin.hash.slice(0, 12)}); approve it again`,
    };
  };

  /** Decides synchronously when no I/O is needed (the common case); a promise otherwise. */
  const decide = (call: ToolCall): PolicyDecision | Promise<PolicyDecision> => {
    const { tool, ctx } = call;
    const view: ToolView = { principal: ctx.principal, session: ctx.session };
    const mode = modeOf(view);
    const risk = riskOf(tool.spec);
    const groups = groupsOf(tool);
    const context: DecisionContext = { mode, risk, shadow, pin: undefined };
    if (!isVisible(rulesFor(view), tool, groups)) {
      const why = explain(tool, view).decidedBy;
      return makeDecision(
        context,
        'deny',
        'tool-list',
        `${tool.name} is not available to this agent: ${why ? `${why.step} (${why.detail}${why.rule ? `: ${why.rule}` : ''})` : 'no step allows it'}`,
      );
    }
    if (!storesLoaded) return loadStores().then(() => decide(call));
    const pin = pins.state(tool);
    context.pin = pin;
    const currentPin = pin;
    if (tool.spec.commandArgument !== undefined) {
      return decideCommand(call, makeDecision(context, 'allow', 'command', ''), commandContext).then(
        (decision) => withPin(decision, tool, currentPin),
      );
    }
    let decision: PolicyDecision;
    if (alwaysAsk.has(tool.name, groups))
      decision = makeDecision(context, 'ask', 'always-ask', `${tool.name} is on the alwaysAsk list`);
    else if (isReadOnly(tool.spec) || risk === 'none' || risk === 'low')
      decision = makeDecision(context, 'allow', 'read-only', `${tool.name} is read-only (risk ${risk})`);
    else if (mode === 'plan')
      decision = makeDecision(
        context,
        'deny',
        'mode',
        `the session is in plan mode (read-only) and ${tool.name} can change things (risk ${risk}); leave plan mode to run it`,
      );
    else if (autoAllow.has(tool.name, groups))
      decision = makeDecision(context, 'allow', 'auto-allow', `${tool.name} is on the autoAllow list`);
    else if (allowList.hasTool(tool.name))
      decision = makeDecision(context, 'allow', 'allow-list', `${tool.name} was approved with allow-always`);
    else if (mode === 'bypass')
      decision = makeDecision(context, 'allow', 'mode', 'the session is in bypass mode');
    else if (mode === 'accept-edits' && tool.spec.sideEffect === 'mutating' && risk === 'medium')
      decision = makeDecision(context, 'allow', 'mode', `accept-edits mode allows file edits (${tool.name})`);
    else
      decision = makeDecision(
        context,
        'ask',
        'risk',
        `${tool.name} has risk ${risk} and the session is in ${mode} mode`,
        [`tool:${tool.name}`],
      );
    return withPin(decision, tool, pin);
  };

  return {
    config,
    allowList,
    pins,
    filter(tools, view) {
      setTools(tools);
      const rules = rulesFor(view);
      // The registry hands the same (immutable) array until it changes: reuse the answer.
      const cached = shadow ? undefined : filtered.get(tools)?.get(rules);
      if (cached) return cached;
      const visible: RegisteredTool[] = [];
      const hidden: string[] = [];
      for (const tool of tools) {
        if (isVisible(rules, tool, groupsOf(tool))) visible.push(tool);
        else if (shadow) hidden.push(tool.name);
      }
      if (!shadow) {
        let perRules = filtered.get(tools);
        if (!perRules) {
          perRules = new WeakMap();
          filtered.set(tools, perRules);
        }
        perRules.set(rules, visible);
        return visible;
      }
      if (hidden.length > 0)
        options.onShadow?.({ kind: 'hide', tools: hidden, reason: 'hidden by the tool-list pipeline', view });
      return tools;
    },
    explain,
    decide,
    check: async (call) => {
      try {
        return await decide(call);
      } catch (error) {
        return {
          decision: 'deny',
          code: 'DENIED',
          source: 'command',
          reason: `the policy could not decide (${error instanceof Error ? error.message : String(error)}); refused`,
          mode: 'default',
          risk: riskOf(call.tool.spec),
          suggestedRules: [],
          shadow,
        };
      }
    },
    async remember(call, decision, answer) {
      const pin = decision.pin;
      if (pin && (pin.status === 'unpinned' || (pin.status === 'changed' && answer === 'allow-always'))) {
        await pins.pin(call.tool.name, pin.hash);
      }
      if (answer !== 'allow-always') return;
      if (decision.command !== undefined) {
        if (decision.suggestedRules.length > 0) await allowList.addCommands(decision.suggestedRules);
      } else if (decision.source !== 'pin' || decision.suggestedRules.length > 0) {
        await allowList.addTool(call.tool.name);
      }
    },
    setTools,
    modeOf,
  };
}
