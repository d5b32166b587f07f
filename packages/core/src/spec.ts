/** A JSON Schema document (draft-07 or 2020-12). */
export type JsonSchema = { readonly [key: string]: unknown };

/** MCP-style hints about what a tool does. Hints, not guarantees. */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/**
 * What running a tool can change: `none` (pure), `read` (reads state), `mutating` (writes
 * state), `network` (reaches other hosts), `spawns` (runs processes or agents).
 */
export type SideEffect = 'none' | 'read' | 'mutating' | 'network' | 'spawns';

/** Risk levels, lowest first. */
export const RISK_LEVELS = ['none', 'low', 'medium', 'high', 'critical'] as const;

/** How much harm a call of a tool can do; drives approvals and permission modes. */
export type RiskLevel = (typeof RISK_LEVELS)[number];

/**
 * What a model sees of a tool, plus what the pipeline needs to run it. Names in a provider's
 * list are local (`search_code`); the orchestrator makes them public (`github__search_code`).
 */
export interface ToolSpec {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations?: ToolAnnotations;
  readonly sideEffect?: SideEffect;
  /** Policy groups the tool belongs to, without the `group:` prefix (`fs`, `runtime`, `web`). */
  readonly groups?: readonly string[];
  /** Named queue the calls wait in. */
  readonly queue?: string;
  /** Response cache time-to-live; 0 or absent disables caching. */
  readonly cacheTtlMs?: number;
  /** Per-tool call timeout. */
  readonly timeoutMs?: number;
  /**
   * Name of the argument that holds a shell command line (`command` for a bash tool), so
   * command rules and approvals can parse it.
   */
  readonly commandArgument?: string;
  /** Extra guidance for the system prompt. */
  readonly instructions?: string;
  /** Provider-specific facts (original remote name, definition hash...). */
  readonly meta?: Readonly<Record<string, unknown>>;
}

const SIDE_EFFECT_RISK: Readonly<Record<SideEffect, RiskLevel>> = {
  none: 'none',
  read: 'low',
  mutating: 'medium',
  network: 'high',
  spawns: 'critical',
};

/**
 * The risk of a tool: a destructive hint is critical, a read-only hint is low, otherwise the
 * side-effect class decides, and a tool that says nothing about itself is high (conservative,
 * as for MCP tools without annotations).
 */
export function riskOf(spec: Pick<ToolSpec, 'annotations' | 'sideEffect'>): RiskLevel {
  if (spec.annotations?.destructiveHint === true) return 'critical';
  if (spec.sideEffect) return SIDE_EFFECT_RISK[spec.sideEffect];
  if (spec.annotations?.readOnlyHint === true) return 'low';
  return 'high';
}

/** Compares two risk levels: negative when `a` is lower. */
export function compareRisk(a: RiskLevel, b: RiskLevel): number {
  return RISK_LEVELS.indexOf(a) - RISK_LEVELS.indexOf(b);
}

/** True when calling the tool changes nothing (safe to retry, cache and run in parallel). */
export function isReadOnly(spec: Pick<ToolSpec, 'annotations' | 'sideEffect'>): boolean {
  if (spec.sideEffect) return spec.sideEffect === 'none' || spec.sideEffect === 'read';
  return spec.annotations?.readOnlyHint === true && spec.annotations.destructiveHint !== true;
}

/** True when repeating a call has no further effect (read-only tools, or an explicit hint). */
export function isIdempotent(spec: Pick<ToolSpec, 'annotations' | 'sideEffect'>): boolean {
  return isReadOnly(spec) || spec.annotations?.idempotentHint === true;
}
