import type { JsonSchema } from '@toolplane/core';
import { isObjectSchema, resolveLocalRef, typesOf } from './pointer.js';
import { ANNOTATIONS, type DialectRules } from './rules.js';
import type { CompatIssue, RestorePlan, Severity } from './types.js';

/** What one compilation carries along. */
export interface TransformContext {
  /** The original root schema: every `$ref` resolves against it. */
  readonly root: JsonSchema;
  readonly rules: DialectRules;
  /** How many times one `$ref` may be followed inside itself before the rest is JSON text. */
  readonly maxRecursionDepth: number;
  readonly issues: CompatIssue[];
}

/** A compiled subschema and the plan that maps its values back. */
export interface Transformed {
  readonly schema: JsonSchema;
  readonly plan: RestorePlan;
}

const SAME: RestorePlan = { kind: 'same' };

export function note(
  ctx: TransformContext,
  path: string,
  keyword: string,
  severity: Severity,
  message: string,
): void {
  ctx.issues.push({ path, keyword, severity, message });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function withDescription(description: unknown, extra: string): string {
  return typeof description === 'string' && description.length > 0 ? `${description} (${extra})` : extra;
}

/** A part the dialect cannot describe: the model sends it as JSON text, parsed back before validation. */
export function asJsonText(
  ctx: TransformContext,
  path: string,
  keyword: string,
  reason: string,
  description?: unknown,
): Transformed {
  note(ctx, path, keyword, 'degraded', `${reason}: sent as JSON text and parsed back before validation`);
  return {
    schema: { type: 'string', description: withDescription(description, 'JSON text') },
    plan: { kind: 'json-text' },
  };
}

/** Whether a value of this (original) schema may be null. */
export function acceptsNull(schema: unknown, root: JsonSchema): boolean {
  let node = schema;
  for (let hops = 0; hops < 16 && isRecord(node) && typeof node.$ref === 'string'; hops++)
    node = resolveLocalRef(root, node.$ref);
  if (node === true) return true;
  if (!isRecord(node)) return false;
  if (node.nullable === true || typesOf(node).includes('null')) return true;
  if (Array.isArray(node.enum) && node.enum.includes(null)) return true;
  if (Object.hasOwn(node, 'const') && node.const === null) return true;
  const union = node.anyOf ?? node.oneOf;
  return Array.isArray(union) && union.some((branch) => acceptsNull(branch, root));
}

/** Makes a compiled schema accept null, in the dialect's spelling. */
export function makeNullable(schema: JsonSchema, rules: DialectRules): JsonSchema {
  if (rules.nullable === 'nullable-keyword') return { ...schema, nullable: true };
  if (Array.isArray(schema.anyOf)) {
    const hasNull = schema.anyOf.some((b) => isRecord(b) && b.type === 'null');
    return hasNull ? schema : { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  }
  if (typeof schema.type === 'string') {
    const out: Record<string, unknown> = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.type))
    return schema.type.includes('null') ? schema : { ...schema, type: [...schema.type, 'null'] };
  if (Array.isArray(schema.enum))
    return schema.enum.includes(null) ? schema : { ...schema, enum: [...schema.enum, null] };
  return { anyOf: [schema, { type: 'null' }] };
}

export function mergeAllOf(schema: JsonSchema, root: JsonSchema): JsonSchema | undefined {
  const { allOf, ...rest } = schema;
  const properties: Record<string, unknown> = { ...(isRecord(rest.properties) ? rest.properties : {}) };
  const required = new Set<string>(Array.isArray(rest.required) ? (rest.required as string[]) : []);
  let additional: unknown = rest.additionalProperties;
  for (const raw of allOf as unknown[]) {
    let branch = raw;
    for (let hops = 0; hops < 16 && isRecord(branch) && typeof branch.$ref === 'string'; hops++)
      branch = resolveLocalRef(root, branch.$ref);
    if (
      !isRecord(branch) ||
      branch.allOf !== undefined ||
      branch.anyOf !== undefined ||
      branch.oneOf !== undefined
    )
      return undefined;
    if (
      !isObjectSchema(branch) &&
      Object.keys(branch).some((k) => !ANNOTATIONS.has(k) && k !== 'description')
    )
      return undefined;
    if (isRecord(branch.properties)) {
      for (const [key, value] of Object.entries(branch.properties)) {
        if (Object.hasOwn(properties, key)) return undefined;
        properties[key] = value;
      }
    }
    if (Array.isArray(branch.required)) for (const key of branch.required) required.add(String(key));
    if (branch.additionalProperties === false) additional = false;
  }
  return {
    ...rest,
    type: 'object',
    properties,
    ...(required.size > 0 ? { required: [...required] } : {}),
    ...(additional === undefined ? {} : { additionalProperties: additional }),
  };
}

/** The type a schema without `type` implies, if any. */
export function inferType(schema: JsonSchema): string | undefined {
  if (isRecord(schema.properties) || schema.additionalProperties !== undefined) return 'object';
  if (schema.items !== undefined) return 'array';
  const values = Array.isArray(schema.enum)
    ? schema.enum
    : Object.hasOwn(schema, 'const')
      ? [schema.const]
      : [];
  const kinds = new Set(
    values.filter((v) => v !== null).map((v) => (typeof v === 'number' ? 'number' : typeof v)),
  );
  if (kinds.size === 1) {
    const [kind] = kinds;
    if (kind === 'string' || kind === 'number' || kind === 'boolean') return kind;
  }
  return undefined;
}

/** Enum values as strings, and the plan that maps them back. */
export function enumPlan(values: readonly unknown[]): { strings: string[]; plan: RestorePlan } {
  const map = new Map<string, unknown>();
  for (const value of values) map.set(typeof value === 'string' ? value : JSON.stringify(value), value);
  return { strings: [...map.keys()], plan: { kind: 'enum', values: map } };
}

export { SAME };
