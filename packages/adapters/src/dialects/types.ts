import type { JsonSchema } from '@toolplane/core';

/** The tool-definition dialects toolplane compiles to (the CLI's `--format` values). */
export const DIALECTS = ['openai', 'openai-strict', 'anthropic', 'gemini', 'mcp'] as const;

/** One of {@link DIALECTS}. */
export type Dialect = (typeof DIALECTS)[number];

/**
 * How much a change costs, mildest first: `lossless` (another spelling, mapped back exactly),
 * `relaxed` (the dialect's schema accepts more than the original; toolplane still validates
 * the original), `degraded` (part of the schema reaches the model as JSON text, so the model
 * sees less structure; values still map back exactly), `unrepresentable` (the dialect cannot
 * carry it at all).
 */
export const SEVERITIES = ['lossless', 'relaxed', 'degraded', 'unrepresentable'] as const;

/** One of {@link SEVERITIES}. */
export type Severity = (typeof SEVERITIES)[number];

/** One change made to a tool for a dialect. */
export interface CompatIssue {
  /** JSON Pointer into the original input schema (`''` for the root), or `name`. */
  readonly path: string;
  /** The keyword concerned (`minLength`, `$ref`, `name`...). */
  readonly keyword: string;
  readonly severity: Severity;
  /** What was done, for a person. */
  readonly message: string;
}

/** The status of a whole tool: `exact` when nothing changed, otherwise its worst issue. */
export type CompatStatus = 'exact' | Severity;

/** What a dialect made of one tool. */
export interface CompatEntry {
  readonly tool: string;
  readonly dialect: Dialect;
  /** The name the dialect sees (differs from `tool` when the dialect refuses the original). */
  readonly dialectName: string;
  readonly status: CompatStatus;
  readonly issues: readonly CompatIssue[];
}

/** The compatibility report of a tool list for one dialect. */
export interface CompatReport {
  readonly dialect: Dialect;
  readonly entries: readonly CompatEntry[];
  /** Tools per status. */
  readonly counts: Readonly<Record<CompatStatus, number>>;
}

/** A plan that maps arguments in the dialect's shape back to the original schema's shape. */
export type RestorePlan =
  | { readonly kind: 'same' }
  | {
      readonly kind: 'object';
      readonly properties: Readonly<
        Record<string, { readonly plan: RestorePlan; readonly nullMeansAbsent: boolean }>
      >;
    }
  | { readonly kind: 'array'; readonly items: RestorePlan }
  | { readonly kind: 'json-text' }
  | { readonly kind: 'enum'; readonly values: ReadonlyMap<string, unknown> }
  | {
      readonly kind: 'union';
      readonly options: readonly { readonly plan: RestorePlan; readonly original: JsonSchema }[];
    }
  | { readonly kind: 'wrapped'; readonly key: string; readonly inner: RestorePlan };

/** One tool compiled for a dialect. */
export interface DialectTool {
  /** The name the dialect sees. */
  readonly name: string;
  /** The toolplane (public) name to call. */
  readonly originalName: string;
  readonly description: string;
  /** The input schema in the dialect's subset (`undefined`: Gemini, for a tool without arguments). */
  readonly parameters: JsonSchema | undefined;
  readonly compat: CompatEntry;
  /** How arguments the model sends map back. */
  readonly restore: RestorePlan;
}
