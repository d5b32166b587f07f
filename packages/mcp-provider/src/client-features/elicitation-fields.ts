import type { ElicitationField, ElicitationOption, ElicitationValue } from './types.js';
import { INVALID_PARAMS, ServerRequestRefusal } from './refusal.js';

/** Bounds of a form a server may ask for. */
export const ELICITATION_LIMITS = {
  maxFields: 100,
  maxOptions: 1000,
  maxSchemaBytes: 64 * 1024,
  maxTextLength: 4096,
} as const;

type Schema = Record<string, unknown>;
const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function refuse(why: string): never {
  throw new ServerRequestRefusal(
    INVALID_PARAMS,
    `elicitation refused: ${why}; MCP forms are a flat object of string, number, integer, boolean and enum fields`,
  );
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const number = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** Options of a titled list (`oneOf`/`anyOf` of `{ const, title }`) or an untitled `enum`. */
function optionsOf(name: string, schema: Schema, enumNames?: unknown): ElicitationOption[] | undefined {
  const titled = Array.isArray(schema.oneOf)
    ? schema.oneOf
    : Array.isArray(schema.anyOf)
      ? schema.anyOf
      : undefined;
  const list = titled ?? (Array.isArray(schema.enum) ? schema.enum : undefined);
  if (list === undefined) return undefined;
  if (list.length === 0) refuse(`field "${name}" offers no choices`);
  if (list.length > ELICITATION_LIMITS.maxOptions)
    refuse(`field "${name}" offers ${list.length} choices, more than ${ELICITATION_LIMITS.maxOptions}`);
  const names = Array.isArray(enumNames) ? enumNames : [];
  return list.map((entry, index) => {
    if (titled) {
      const value = isObject(entry) ? text(entry.const) : undefined;
      if (value === undefined) refuse(`choice ${index} of field "${name}" has no string "const"`);
      return { value, title: text((entry as Schema).title) ?? value };
    }
    const value = text(entry);
    if (value === undefined) refuse(`choice ${index} of field "${name}" is not a string`);
    return { value, title: text(names[index]) ?? value };
  });
}

function fieldOf(name: string, schema: unknown, required: boolean): ElicitationField {
  if (!isObject(schema)) refuse(`field "${name}" has no schema object`);
  const base = {
    name,
    title: text(schema.title) ?? name,
    ...(text(schema.description) === undefined ? {} : { description: text(schema.description) as string }),
    required,
  };
  const type = schema.type;
  if (type === 'array') {
    const items = schema.items;
    if (!isObject(items)) refuse(`multi-select field "${name}" has no "items" schema`);
    const options = optionsOf(name, items);
    if (!options) refuse(`multi-select field "${name}" lists no choices in "items"`);
    const fallback = schema.default;
    const chosen =
      Array.isArray(fallback) && fallback.every((each) => typeof each === 'string') ? fallback : undefined;
    return {
      ...base,
      kind: 'choices',
      options,
      ...(chosen === undefined ? {} : { default: chosen as string[] }),
      ...(number(schema.minItems) === undefined ? {} : { minItems: number(schema.minItems) as number }),
      ...(number(schema.maxItems) === undefined ? {} : { maxItems: number(schema.maxItems) as number }),
    };
  }
  if (type === 'string') {
    const options = optionsOf(name, schema, schema.enumNames);
    const fallback = text(schema.default);
    if (options)
      return { ...base, kind: 'choice', options, ...(fallback === undefined ? {} : { default: fallback }) };
    return {
      ...base,
      kind: 'string',
      ...(fallback === undefined ? {} : { default: fallback }),
      ...(text(schema.format) === undefined ? {} : { format: text(schema.format) as string }),
      ...(number(schema.minLength) === undefined ? {} : { minLength: number(schema.minLength) as number }),
      ...(number(schema.maxLength) === undefined ? {} : { maxLength: number(schema.maxLength) as number }),
    };
  }
  if (type === 'number' || type === 'integer') {
    const fallback = number(schema.default);
    return {
      ...base,
      kind: type,
      ...(fallback === undefined ? {} : { default: fallback }),
      ...(number(schema.minimum) === undefined ? {} : { minimum: number(schema.minimum) as number }),
      ...(number(schema.maximum) === undefined ? {} : { maximum: number(schema.maximum) as number }),
    };
  }
  if (type === 'boolean') {
    const fallback = typeof schema.default === 'boolean' ? schema.default : undefined;
    return { ...base, kind: 'boolean', ...(fallback === undefined ? {} : { default: fallback }) };
  }
  refuse(`field "${name}" is of type ${JSON.stringify(type) ?? 'undefined'}, which a form cannot hold`);
}

/**
 * The fields of an elicitation form, in the schema's order, each with its title, default and
 * choices (titled or untitled, single or multi-select). Throws a refusal (sent to the server as
 * -32602) for a schema MCP does not allow (nested objects, arrays of anything but choices) or
 * one past {@link ELICITATION_LIMITS}. For a channel that asks a person field by field.
 *
 * @example
 * elicitationFields({ type: 'object', properties: { n: { type: 'integer', default: 3 } } });
 * // [{ name: 'n', title: 'n', kind: 'integer', required: false, default: 3 }]
 */
export function elicitationFields(requestedSchema: unknown): ElicitationField[] {
  let size: number;
  try {
    size = JSON.stringify(requestedSchema)?.length ?? 0;
  } catch {
    refuse('the schema cannot be read as JSON');
  }
  if (size > ELICITATION_LIMITS.maxSchemaBytes)
    refuse(`the schema is ${size} bytes, more than ${ELICITATION_LIMITS.maxSchemaBytes}`);
  if (!isObject(requestedSchema) || requestedSchema.type !== 'object')
    refuse('the requested schema is not { "type": "object" }');
  const properties = requestedSchema.properties ?? {};
  if (!isObject(properties)) refuse('"properties" is not an object');
  const names = Object.keys(properties);
  if (names.length > ELICITATION_LIMITS.maxFields)
    refuse(`the form has ${names.length} fields, more than ${ELICITATION_LIMITS.maxFields}`);
  const required = new Set(Array.isArray(requestedSchema.required) ? requestedSchema.required : []);
  return names.map((name) => fieldOf(name, properties[name], required.has(name)));
}

/** The defaults of a form's fields, by name (SEP-1034). */
export function elicitationDefaults(fields: readonly ElicitationField[]): Record<string, ElicitationValue> {
  const defaults: Record<string, ElicitationValue> = {};
  for (const field of fields) if (field.default !== undefined) defaults[field.name] = field.default;
  return defaults;
}
