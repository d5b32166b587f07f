import type { JsonSchema } from '@toolplane/core';
import { pointer, resolveLocalRef, typesOf } from './pointer.js';
import { ANNOTATIONS, STRUCTURAL } from './rules.js';
import {
  SAME,
  type TransformContext,
  type Transformed,
  acceptsNull,
  asJsonText,
  enumPlan,
  inferType,
  isRecord,
  makeNullable,
  mergeAllOf,
  note,
  withDescription,
} from './transform-helpers.js';
import type { RestorePlan } from './types.js';

export type { TransformContext, Transformed } from './transform-helpers.js';

const MAX_NOTE_LENGTH = 160;

function transformUnion(
  schema: JsonSchema,
  path: string,
  ctx: TransformContext,
  refStack: readonly string[],
): Transformed {
  const keyword = Array.isArray(schema.anyOf) ? 'anyOf' : 'oneOf';
  const { anyOf, oneOf, ...siblings } = schema;
  const branches = (anyOf ?? oneOf) as unknown[];
  if (keyword === 'oneOf')
    note(
      ctx,
      path,
      'oneOf',
      'relaxed',
      'oneOf given as anyOf: "exactly one" is checked by toolplane, not the model',
    );
  const isNullBranch = (b: unknown): boolean => isRecord(b) && typesOf(b).length === 1 && b.type === 'null';
  const nonNull = branches.filter((b) => !isNullBranch(b));
  const hasNull = nonNull.length < branches.length;
  const structuralSiblings = Object.keys(siblings).filter((k) => STRUCTURAL.has(k) && !ANNOTATIONS.has(k));
  if (nonNull.length === 1) {
    const only = nonNull[0];
    const merged = isRecord(only) && structuralSiblings.length === 0 ? { ...siblings, ...only } : only;
    const out = transformSchema(
      merged,
      pointer(pointer(path, keyword), branches.indexOf(only)),
      ctx,
      refStack,
    );
    return { schema: hasNull ? makeNullable(out.schema, ctx.rules) : out.schema, plan: out.plan };
  }
  if (structuralSiblings.length > 0)
    return asJsonText(
      ctx,
      path,
      keyword,
      `${keyword} beside ${structuralSiblings.join(', ')}`,
      siblings.description,
    );
  const outs = nonNull.map((b) =>
    transformSchema(b, pointer(pointer(path, keyword), branches.indexOf(b)), ctx, refStack),
  );
  const out: Record<string, unknown> = { anyOf: outs.map((o) => o.schema) };
  if (typeof siblings.description === 'string') out.description = siblings.description;
  const compiled = hasNull ? makeNullable(out, ctx.rules) : out;
  if (outs.every((o) => o.plan.kind === 'same')) return { schema: compiled, plan: SAME };
  const defs = { $defs: ctx.root.$defs, definitions: ctx.root.definitions };
  return {
    schema: compiled,
    plan: {
      kind: 'union',
      options: outs.map((o, i) => ({ plan: o.plan, original: { ...defs, ...(nonNull[i] as JsonSchema) } })),
    },
  };
}

/**
 * Compiles one subschema to a restricted dialect (OpenAI strict, Gemini), recording every
 * change in `ctx.issues` and returning the plan that maps values back.
 */
export function transformSchema(
  input: unknown,
  path: string,
  ctx: TransformContext,
  refStack: readonly string[] = [],
): Transformed {
  if (input === false) {
    note(ctx, path, 'false', 'unrepresentable', 'a schema that accepts no value');
    return { schema: { type: 'string', description: 'no value is accepted' }, plan: SAME };
  }
  if (
    input === true ||
    (isRecord(input) &&
      Object.keys(input).every((k) => ANNOTATIONS.has(k) || k === 'description' || k === 'title'))
  )
    return asJsonText(
      ctx,
      path,
      'type',
      'a value of any type',
      isRecord(input) ? input.description : undefined,
    );
  if (!isRecord(input)) {
    note(ctx, path, 'type', 'unrepresentable', 'not a JSON Schema object');
    return { schema: { type: 'string' }, plan: SAME };
  }
  const schema = input as JsonSchema;
  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref;
    const target = resolveLocalRef(ctx.root, ref);
    if (target === undefined)
      return asJsonText(ctx, path, '$ref', `$ref ${ref} cannot be resolved here`, schema.description);
    if (refStack.filter((r) => r === ref).length >= ctx.maxRecursionDepth)
      return asJsonText(
        ctx,
        path,
        '$ref',
        `recursion of ${ref} cut at depth ${ctx.maxRecursionDepth}`,
        isRecord(target) ? target.description : undefined,
      );
    if (!refStack.includes(ref)) note(ctx, path, '$ref', 'lossless', `${ref} inlined`);
    const { $ref: _ref, ...siblings } = schema;
    const merged = typeof target === 'boolean' ? target : { ...target, ...siblings };
    return transformSchema(merged, path, ctx, [...refStack, ref]);
  }
  if (Array.isArray(schema.allOf)) {
    const merged = mergeAllOf(schema, ctx.root);
    if (!merged)
      return asJsonText(ctx, path, 'allOf', 'an allOf that is not a merge of objects', schema.description);
    note(ctx, path, 'allOf', 'lossless', 'allOf merged into one object');
    return transformSchema(merged, path, ctx, refStack);
  }
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf))
    return transformUnion(schema, path, ctx, refStack);

  const types = typesOf(schema);
  const nullable = types.includes('null') || schema.nullable === true;
  const nonNullTypes = types.filter((t) => t !== 'null');
  if (nonNullTypes.length > 1) {
    note(ctx, path, 'type', 'lossless', `type list [${types.join(', ')}] given as anyOf`);
    const { type: _type, description, ...rest } = schema;
    const branches: unknown[] = nonNullTypes.map((type) => ({ ...rest, type }));
    if (nullable) branches.push({ type: 'null' });
    return transformUnion(
      { anyOf: branches, ...(description === undefined ? {} : { description }) },
      path,
      ctx,
      refStack,
    );
  }
  const type = nonNullTypes[0] ?? inferType(schema);
  const rules = ctx.rules;
  const out: Record<string, unknown> = {};
  let plan: RestorePlan = SAME;
  const notes: string[] = [];

  if (type === undefined && !Array.isArray(schema.enum) && !Object.hasOwn(schema, 'const')) {
    if (nullable && types.length === 1) {
      if (rules.nullable === 'type-array') return { schema: { type: 'null' }, plan: SAME };
      note(ctx, path, 'type', 'unrepresentable', 'a value that can only be null');
      return { schema: { type: 'string', nullable: true, description: 'always null' }, plan: SAME };
    }
    return asJsonText(ctx, path, 'type', 'a value of any type', schema.description);
  }
  if (type !== undefined) out.type = type;

  if (type === 'object') {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const keys = Object.keys(properties);
    const additional = schema.additionalProperties;
    if (keys.length === 0 && additional !== false && path !== '')
      return asJsonText(
        ctx,
        path,
        'additionalProperties',
        'an object with free-form keys',
        schema.description,
      );
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    const compiledProps: Record<string, unknown> = {};
    const planProps: Record<string, { plan: RestorePlan; nullMeansAbsent: boolean }> = {};
    let changed = false;
    const madeNullable: string[] = [];
    for (const key of keys) {
      const child = transformSchema(
        properties[key],
        pointer(pointer(path, 'properties'), key),
        ctx,
        refStack,
      );
      let childSchema = child.schema;
      let nullMeansAbsent = false;
      if (rules.strictObjects && !required.has(key)) {
        if (acceptsNull(properties[key], ctx.root)) {
          note(
            ctx,
            pointer(pointer(path, 'properties'), key),
            'required',
            'relaxed',
            'optional and nullable: the model must send it, and a null reaches the tool as null',
          );
        } else {
          childSchema = makeNullable(childSchema, rules);
          nullMeansAbsent = true;
          madeNullable.push(key);
        }
      }
      // defineProperty: a property named __proto__ stays a property
      Object.defineProperty(compiledProps, key, {
        value: childSchema,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      Object.defineProperty(planProps, key, {
        value: { plan: child.plan, nullMeansAbsent },
        enumerable: true,
        writable: true,
        configurable: true,
      });
      if (nullMeansAbsent || child.plan.kind !== 'same') changed = true;
    }
    if (madeNullable.length > 0)
      note(
        ctx,
        path,
        'required',
        'lossless',
        `optional ${madeNullable.join(', ')} made required and nullable; null is read as absent`,
      );
    for (const key of required)
      if (!Object.hasOwn(properties, key))
        note(
          ctx,
          path,
          'required',
          'relaxed',
          `required ${key} is not a declared property: left to toolplane's validation`,
        );
    out.properties = compiledProps;
    const requiredOut = rules.strictObjects ? keys : keys.filter((k) => required.has(k));
    if (requiredOut.length > 0 || rules.strictObjects) out.required = requiredOut;
    if (rules.strictObjects) {
      out.additionalProperties = false;
      if (additional !== undefined && additional !== false)
        note(
          ctx,
          path,
          'additionalProperties',
          'degraded',
          'properties beyond the declared ones cannot be sent',
        );
    } else if (additional !== undefined) {
      note(
        ctx,
        path,
        'additionalProperties',
        'relaxed',
        'additionalProperties dropped: checked by toolplane',
      );
    }
    if (changed) plan = { kind: 'object', properties: planProps };
  } else if (type === 'array') {
    if (Array.isArray(schema.items) || schema.prefixItems !== undefined)
      return asJsonText(ctx, path, 'items', 'a tuple (items by position)', schema.description);
    const child = transformSchema(schema.items ?? true, pointer(path, 'items'), ctx, refStack);
    out.items = child.schema;
    if (child.plan.kind !== 'same') plan = { kind: 'array', items: child.plan };
  }

  let enumValues: unknown[] | undefined = Array.isArray(schema.enum) ? [...schema.enum] : undefined;
  if (Object.hasOwn(schema, 'const')) {
    if (rules.constKeyword) out.const = schema.const;
    else {
      note(ctx, path, 'const', 'lossless', 'const given as a one-value enum');
      enumValues = [schema.const];
    }
  }
  if (enumValues) {
    const withoutNull = enumValues.filter((v) => v !== null);
    if (rules.enumsAsStrings && withoutNull.some((v) => typeof v !== 'string')) {
      const mapped = enumPlan(withoutNull);
      note(ctx, path, 'enum', 'lossless', 'enum values written as strings and mapped back');
      out.type = 'string';
      out.enum = mapped.strings;
      plan = mapped.plan;
    } else if (rules.enumsAsStrings) {
      out.type = 'string';
      out.enum = withoutNull;
    } else out.enum = enumValues;
    if (rules.enumsAsStrings && withoutNull.length < enumValues.length) out.nullable = true;
  }

  if (typeof schema.format === 'string') {
    if (rules.formats.has(schema.format)) out.format = schema.format;
    else {
      notes.push(`format: ${schema.format}`);
      note(ctx, path, 'format', 'relaxed', `format ${schema.format} moved to the description`);
    }
  }
  for (const [key, value] of Object.entries(schema)) {
    if (STRUCTURAL.has(key) || key === 'prefixItems') continue;
    if (rules.keep.has(key)) {
      out[key] = value;
      continue;
    }
    if (ANNOTATIONS.has(key)) continue;
    let text = JSON.stringify(value) ?? String(value);
    if (text.length > MAX_NOTE_LENGTH) text = `${text.slice(0, MAX_NOTE_LENGTH)}...`;
    notes.push(`${key}: ${text}`);
    note(ctx, path, key, 'relaxed', `${key} moved to the description`);
  }
  if (notes.length > 0) out.description = withDescription(schema.description, notes.join('; '));
  const compiled = nullable ? makeNullable(out, rules) : out;
  return { schema: compiled, plan };
}
