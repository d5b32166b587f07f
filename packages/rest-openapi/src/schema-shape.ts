import { Ajv, type Options } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { compileSchema, errorMessage } from '@toolplane/core';

const options: Options = { strict: false, logger: false, allErrors: true };
let engines: { draft07: Ajv; draft2019: Ajv; draft2020: Ajv } | undefined;

function engineFor(schema: Record<string, unknown>): Ajv {
  engines ??= {
    draft07: new Ajv(options),
    draft2019: new Ajv2019(options) as unknown as Ajv,
    draft2020: new Ajv2020(options) as unknown as Ajv,
  };
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect.includes('2020-12')) return engines.draft2020;
  if (dialect.includes('2019-09')) return engines.draft2019;
  return engines.draft07;
}

/** Keywords whose values are data, not schemas: a `pattern` inside them is no pattern. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples', 'example']);

/** Keywords that refer to or name a schema: only schemas holding one can fail to compile once valid. */
const REFERENCE_KEYWORDS: readonly string[] = [
  '$ref',
  '$id',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
];

/** What the walk of {@link badPattern} noticed besides patterns. */
interface Walk {
  readonly seen: Set<object>;
  refers: boolean;
}

/**
 * The first `pattern` (or `patternProperties` name) that is no regular expression as the
 * validator builds it (with the `u` flag), said as the problem; the walk visits each object once
 * and notes whether a reference keyword ({@link REFERENCE_KEYWORDS}) occurs.
 */
function badPattern(node: unknown, walk: Walk): string | undefined {
  if (typeof node !== 'object' || node === null || walk.seen.has(node)) return undefined;
  walk.seen.add(node);
  const record = node as Record<string, unknown>;
  if (!walk.refers && !Array.isArray(node))
    walk.refers = REFERENCE_KEYWORDS.some((keyword) => Object.hasOwn(record, keyword));
  const candidates: string[] = [];
  if (typeof record.pattern === 'string') candidates.push(record.pattern);
  const patternProperties = record.patternProperties;
  if (
    typeof patternProperties === 'object' &&
    patternProperties !== null &&
    !Array.isArray(patternProperties)
  )
    candidates.push(...Object.keys(patternProperties));
  for (const candidate of candidates) {
    try {
      new RegExp(candidate, 'u');
    } catch (error) {
      return `the pattern ${JSON.stringify(candidate.slice(0, 100))} is no regular expression (${errorMessage(error)})`;
    }
  }
  const members = Array.isArray(node)
    ? node
    : Object.entries(record)
        .filter(([key]) => !DATA_KEYWORDS.has(key))
        .map(([, member]) => member);
  for (const member of members) {
    const found = badPattern(member, walk);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Schemas found valid already (imported tools share them with the provider built from them). */
const valid = new WeakSet<object>();

/**
 * What makes `schema` no valid JSON Schema of its dialect (draft-07 unless its `$schema` names
 * 2019-09 or 2020-12), judged against the dialect's meta-schema: a `type` that is no type name,
 * a `minimum` that is no number, a `pattern` that is no regular expression... each of which
 * makes every call of the tool fail. Undefined when it is valid. Checking against the
 * meta-schema costs a fraction of compiling (GitHub's 1,223 tools: about 0.2 s against 9 s).
 */
export function schemaShapeProblem(schema: Record<string, unknown>): string | undefined {
  if (valid.has(schema)) return undefined;
  // every call would fail compiling it; say so now (counted as core counts, before the meta-schema
  // check, which would take as long)
  if (holdsMoreNodesThan(schema, MAX_SCHEMA_NODES))
    return `it holds more than ${MAX_SCHEMA_NODES} objects and arrays, which the argument validator would take seconds to compile (core's maxSchemaNodes refuses it on every call); split the tool's input into smaller tools`;
  const engine = engineFor(schema);
  let fine: boolean;
  try {
    fine = engine.validateSchema(schema) as boolean;
  } catch (error) {
    return errorMessage(error);
  }
  if (fine) {
    // the meta-schemas' `format: regex` is not checked by the validator: patterns are, here
    const walk: Walk = { seen: new Set(), refers: false };
    const pattern = badPattern(schema, walk);
    if (pattern !== undefined) return pattern;
    // a reference that points nowhere (or to another document, which is never fetched) or an
    // `$id` given twice passes the meta-schema and fails every call: such schemas are compiled
    // now, as the call would (core caches the result, so the first call does not compile again)
    if (walk.refers) {
      const problem = compileProblem(schema);
      if (problem !== undefined) return problem;
    }
    valid.add(schema);
    return undefined;
  }
  const errors = engine.errors ?? [];
  const shown = errors
    .slice(0, 5)
    .map(
      (error) =>
        `${error.instancePath.slice(1).replaceAll('/', '.') || '(top)'} ${error.message ?? 'is invalid'}`,
    );
  if (errors.length > 5) shown.push(`and ${errors.length - 5} more`);
  return shown.join('; ');
}

/**
 * The most objects and arrays an argument schema may hold: core's default `maxSchemaNodes`, above
 * which its validator refuses to compile a schema (kept here as a number, so this package does not
 * need a core that exports it).
 */
const MAX_SCHEMA_NODES = 5000;

/**
 * Whether a schema holds more than `limit` objects and arrays, a shared subschema once per place
 * it is used (as core's validator counts them): an explicit stack, stopping past the limit.
 */
function holdsMoreNodesThan(schema: unknown, limit: number): boolean {
  const pending: unknown[] = [schema];
  let count = 0;
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (++count > limit) return true;
    for (const member of Object.values(value)) if (typeof member === 'object') pending.push(member);
  }
  return false;
}

/** Why core cannot compile `schema` (as every call would), or undefined. */
function compileProblem(schema: Record<string, unknown>): string | undefined {
  try {
    compileSchema(schema);
    return undefined;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    const message = errorMessage(cause ?? error);
    return /can't resolve reference/.test(message)
      ? `${message} (a $ref must point inside the schema, such as #/definitions/Name; other documents are not fetched)`
      : message;
  }
}
