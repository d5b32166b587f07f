import {
  type PermissionMode,
  type RegisteredTool,
  type RiskLevel,
  type ToolCall,
  ToolError,
  type ToolView,
  isReadOnly,
  riskOf,
} from '@toolplane/core';
import { type AllowList, createAllowList } from './allow-list.js';
import { type CompiledCommandRules, checkCommandLine } from './command-check.js';
import { compileCommandPattern } from './command-pattern.js';
import type { PolicyConfig } from './config.js';
import type { PolicyDecision } from './decision.js';
import { type Explanation, decidingStep, formatExplanation } from './explain.js';
import { toolGroups } from './groups.js';
import { PERMISSION_MODES, createModeTracker } from './modes.js';
import { type PinState, type PinStore, createPinStore } from './pin-store.js';
import {
  type CompiledLists,
  type ViewRules,
  compileLists,
  isVisible,
  traceVisibility,
  viewRules,
} from './pipeline.js';
import { type RefSet, compileRefs } from './refs.js';
import type { FindingCategory } from './shell/analysis.js';
import { analyzeCommandLine } from './shell/extract.js';
import { loadShellParser, loadedShellParser } from './shell/parser.js';

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

const CATEGORIES: ReadonlySet<string> = new Set([
  'destructive-file-operation',
  'disk-destruction',
  'system-control',
  'fork-bomb',
  'remote-code-execution',
  'reverse-shell',
  'eval-injection',
]);
const MODES: ReadonlySet<string> = new Set(PERMISSION_MODES);

/** A config list that must be an array of strings (a JSON file may hold anything). */
function stringList(list: unknown, where: string): readonly string[] {
  if (list === undefined) return [];
  if (!Array.isArray(list) || list.some((entry) => typeof entry !== 'string'))
    throw new ToolError('CONFIG_INVALID', `${where} must be an array of strings, such as ["git status"]`);
  return list;
}

function compileCommandRules(config: PolicyConfig): CompiledCommandRules {
  const compile = (key: 'allow' | 'ask' | 'deny') =>
    stringList(config.commands?.[key], `commands.${key}`).map(compileCommandPattern);
  const disabled = stringList(config.commands?.disableDefaultRules, 'commands.disableDefaultRules');
  const unknown = disabled.find((category) => !CATEGORIES.has(category));
  if (unknown !== undefined)
    throw new ToolError(
      'CONFIG_INVALID',
      `commands.disableDefaultRules: "${unknown}" is not a category; use one of ${[...CATEGORIES].join(', ')}`,
    );
  if (config.mode !== undefined && !MODES.has(config.mode))
    throw new ToolError(
      'CONFIG_INVALID',
      `mode "${String(config.mode)}" is unknown; use one of ${[...MODES].join(', ')}`,
    );
  return {
    allow: compile('allow'),
    ask: compile('ask'),
    deny: compile('deny'),
    disabledDefaults: new Set(disabled as readonly FindingCategory[]),
  };
}

/** A relative path that stays in the working directory (accept-edits lets these be written). */
function isWorkspacePath(path: string): boolean {
  return !/^[/~\\]|^[A-Za-z]:|^<computed>$/.test(path) && !path.split(/[/\\]/).includes('..');
}

const NO_RULES: readonly string[] = [];
/** Longer command lines are asked without parsing (a bound on the work one call can cause). */
const MAX_COMMAND_LENGTH = 65_536;

/** What every decision of one call shares. */
interface DecisionContext {
  readonly mode: PermissionMode;
  readonly risk: RiskLevel;
  readonly shadow: boolean;
  pin: PinState | undefined;
}

function makeDecision(
  context: DecisionContext,
  decision: PolicyDecision['decision'],
  source: PolicyDecision['source'],
  reason: string,
  suggestedRules: readonly string[] = NO_RULES,
): PolicyDecision {
  const made: { -readonly [K in keyof PolicyDecision]: PolicyDecision[K] } = {
    decision,
    source,
    reason,
    mode: context.mode,
    risk: context.risk,
    suggestedRules,
    shadow: context.shadow,
  };
  if (decision === 'deny') made.code = 'DENIED';
  if (context.pin && context.pin.status !== 'not-pinnable') made.pin = context.pin;
  return made;
}
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
 * const policy = createPolicy({ profile: 'coding', deny: ['mcp__github__delete_*'] });
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
      return checkCommand(call, makeDecision(context, 'allow', 'command', '')).then((decision) =>
        withPin(decision, tool, currentPin),
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

  const checkCommand = async (call: ToolCall, base: PolicyDecision): Promise<PolicyDecision> => {
    const argument = call.tool.spec.commandArgument as string;
    const command = call.args[argument];
    if (typeof command !== 'string') {
      return {
        ...base,
        decision: 'deny',
        code: 'INVALID_ARGUMENTS',
        source: 'arguments',
        reason: `argument "${argument}" of ${call.tool.name} must be a command line string`,
      };
    }
    if (command.length > MAX_COMMAND_LENGTH) {
      return {
        ...base,
        command,
        decision: base.mode === 'plan' ? 'deny' : 'ask',
        ...(base.mode === 'plan' ? { code: 'DENIED' as const } : {}),
        source: 'command',
        reason: `the command line is ${command.length} characters long; over ${MAX_COMMAND_LENGTH} it is not analyzed`,
      };
    }
    const parser = loadedShellParser() ?? (await loadShellParser());
    const analysis = analyzeCommandLine(parser, command);
    const result = checkCommandLine(analysis, commandRules, allowList.commandPatterns());
    const common = { ...base, command, commandCheck: result, suggestedRules: result.suggestedRules };
    switch (result.verdict) {
      case 'deny':
        return { ...common, decision: 'deny', code: 'DENIED', source: 'command', reason: result.reason };
      case 'ask':
        if (base.mode === 'plan') break;
        return { ...common, decision: 'ask', source: 'command', reason: result.reason };
      case 'allow':
        if (base.mode === 'plan') break;
        return { ...common, decision: 'allow', source: 'command', reason: result.reason };
      default:
        if (base.mode === 'bypass')
          return { ...common, decision: 'allow', source: 'mode', reason: `bypass mode: ${result.reason}` };
        if (
          base.mode === 'accept-edits' &&
          result.unmatched.length === 0 &&
          result.writes.every(isWorkspacePath)
        )
          return {
            ...common,
            decision: 'allow',
            source: 'mode',
            reason: `accept-edits mode allows file writes: ${result.reason}`,
          };
        if (base.mode !== 'plan')
          return { ...common, decision: 'ask', source: 'command', reason: result.reason };
    }
    return {
      ...common,
      decision: 'deny',
      code: 'DENIED',
      source: 'mode',
      reason:
        'the session is in plan mode (read-only): shell commands do not run; leave plan mode to run them',
    };
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
