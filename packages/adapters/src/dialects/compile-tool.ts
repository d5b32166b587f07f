import type { JsonSchema, ToolSpec } from '@toolplane/core';
import { isObjectSchema, resolveLocalRef } from './pointer.js';
import { GEMINI_RULES, OPENAI_STRICT_RULES } from './rules.js';
import { type TransformContext, transformSchema } from './transform.js';
import {
  type CompatIssue,
  type CompatStatus,
  type Dialect,
  type DialectTool,
  type RestorePlan,
  SEVERITIES,
} from './types.js';

/** Options of compiling tools to a dialect. */
export interface CompileOptions {
  /** How often a recursive `$ref` is followed inside itself before the rest is JSON text (default 3). */
  readonly maxRecursionDepth?: number;
}

/** Default depth at which recursive schemas are cut (Gemini and OpenAI strict). */
export const DEFAULT_MAX_RECURSION_DEPTH = 3;

const WRAP_KEY = 'input';

function statusOf(issues: readonly CompatIssue[]): CompatStatus {
  let worst = -1;
  for (const issue of issues) worst = Math.max(worst, SEVERITIES.indexOf(issue.severity));
  return worst < 0 ? 'exact' : (SEVERITIES[worst] as CompatStatus);
}

function rootIsObject(schema: JsonSchema): boolean {
  let node: unknown = schema;
  for (
    let hops = 0;
    hops < 16 && typeof node === 'object' && node !== null && typeof (node as JsonSchema).$ref === 'string';
    hops++
  )
    node = resolveLocalRef(schema, (node as JsonSchema).$ref as string);
  return typeof node === 'object' && node !== null && isObjectSchema(node as JsonSchema);
}

/** The root as the dialect needs it: an object schema (a root that is not one is wrapped). */
function normalizeRoot(schema: JsonSchema, issues: CompatIssue[]): { schema: JsonSchema; wrapped: boolean } {
  if (rootIsObject(schema)) {
    if (schema.type === undefined && schema.$ref === undefined) {
      issues.push({
        path: '',
        keyword: 'type',
        severity: 'lossless',
        message: 'type: object added to the root',
      });
      return { schema: { type: 'object', ...schema }, wrapped: false };
    }
    return { schema, wrapped: false };
  }
  const { $defs, definitions, $schema: _dialect, ...inner } = schema;
  issues.push({
    path: '',
    keyword: 'type',
    severity: 'lossless',
    message: `the root is not an object: the arguments are wrapped as { ${WRAP_KEY}: ... } and unwrapped before the call`,
  });
  return {
    schema: {
      type: 'object',
      properties: { [WRAP_KEY]: inner },
      required: [WRAP_KEY],
      ...($defs === undefined ? {} : { $defs }),
      ...(definitions === undefined ? {} : { definitions }),
    },
    wrapped: true,
  };
}

/**
 * Compiles one tool to a dialect under a given name. OpenAI (non-strict), Anthropic and MCP take
 * JSON Schema as it is (only the root must be an object); OpenAI strict and Gemini get the
 * rewritten subset. Every change is in `compat.issues`.
 */
export function compileTool(
  spec: ToolSpec,
  dialect: Dialect,
  name: string,
  options: CompileOptions = {},
): DialectTool {
  const issues: CompatIssue[] = [];
  if (name !== spec.name)
    issues.push({
      path: 'name',
      keyword: 'name',
      severity: 'lossless',
      message: `name given as ${name} (the dialect refuses ${spec.name}) and mapped back`,
    });
  const original = (
    typeof spec.inputSchema === 'object' && spec.inputSchema !== null ? spec.inputSchema : {}
  ) as JsonSchema;
  const root = normalizeRoot(original, issues);
  let parameters: JsonSchema | undefined = root.schema;
  let plan: RestorePlan = { kind: 'same' };
  if (dialect === 'openai-strict' || dialect === 'gemini') {
    const ctx: TransformContext = {
      root: root.schema,
      rules: dialect === 'gemini' ? GEMINI_RULES : OPENAI_STRICT_RULES,
      maxRecursionDepth: options.maxRecursionDepth ?? DEFAULT_MAX_RECURSION_DEPTH,
      issues,
    };
    const out = transformSchema(root.schema, '', ctx);
    parameters = out.schema;
    plan = out.plan;
    if (dialect === 'gemini' && Object.keys((parameters.properties as object | undefined) ?? {}).length === 0)
      parameters = undefined;
  }
  if (root.wrapped)
    plan = {
      kind: 'wrapped',
      key: WRAP_KEY,
      inner: plan.kind === 'object' ? objectInner(plan) : { kind: 'same' },
    };
  return {
    name,
    originalName: spec.name,
    description: spec.description,
    parameters,
    restore: plan,
    compat: { tool: spec.name, dialect, dialectName: name, status: statusOf(issues), issues },
  };
}

function objectInner(plan: RestorePlan): RestorePlan {
  if (plan.kind !== 'object') return plan;
  return plan.properties[WRAP_KEY]?.plan ?? { kind: 'same' };
}
