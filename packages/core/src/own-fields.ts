import type { z } from 'zod';

/** The parts of a zod schema's definition the walk reads (zod 4's `_zod.def`). */
interface SchemaDef {
  readonly type: string;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly catchall?: z.ZodType;
  readonly element?: z.ZodType;
  readonly items?: readonly z.ZodType[];
  readonly rest?: z.ZodType | null;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly getter?: () => z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly values?: readonly unknown[];
}

/** Schemas that check their input against one inner schema. */
const WRAPPERS = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'nonoptional',
  'catch',
  'readonly',
  'success',
]);

/** Schemas that hand their input on as it is (a copy without a prototype would reach the tool). */
const AS_GIVEN = new Set(['any', 'unknown', 'custom']);

/** Deeper than this (a recursive `z.lazy` schema), values are passed as they are. */
const MAX_DEPTH = 500;

function defOf(schema: z.ZodType): SchemaDef {
  return schema._zod.def as unknown as SchemaDef;
}

/** The schema under wrappers, pipes and lazy schemas (bounded: a lazy schema may return itself). */
function unwrapped(schema: z.ZodType): SchemaDef {
  let def = defOf(schema);
  for (let i = 0; i < 100; i++) {
    const inner = WRAPPERS.has(def.type)
      ? def.innerType
      : def.type === 'pipe'
        ? def.in
        : def.type === 'lazy'
          ? def.getter?.()
          : undefined;
    if (!inner) return def;
    def = defOf(inner);
  }
  return def;
}

function isRecordLike(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * `value` with every plain object that a `z.object` (or `z.record`) of `schema` will read
 * replaced by a copy of its own fields without a prototype, at any depth. zod's `z.object` reads
 * `input[key]`, so on a plain object it would find `constructor`, `toString` or `valueOf` on the
 * prototype: `{}` would fail an optional string field of such a name ("received function"), and
 * a required `z.unknown()` field named `constructor` would be satisfied by `Object`. zod builds new
 * plain objects and arrays for its output, so the tool still gets plain ones. Values that a
 * `z.any()`, `z.unknown()` or a passthrough key receive are not copied: they reach the tool as
 * given.
 */
export function ownFieldsFor(schema: z.ZodType, value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value;
  const def = defOf(schema);
  const next = depth + 1;
  switch (def.type) {
    case 'object':
      return isRecordLike(value) ? copyObject(value, def, next) : value;
    case 'record':
      return isRecordLike(value) && def.valueType ? copyRecord(value, def.valueType, next) : value;
    case 'array':
      return Array.isArray(value) && def.element
        ? value.map((item: unknown) => ownFieldsFor(def.element as z.ZodType, item, next))
        : value;
    case 'tuple':
      return Array.isArray(value) ? copyTuple(value, def, next) : value;
    case 'union':
      return unionBranch(def, value)
        ? ownFieldsFor(unionBranch(def, value) as z.ZodType, value, next)
        : value;
    case 'intersection':
      return def.left && def.right
        ? ownFieldsFor(def.right, ownFieldsFor(def.left, value, next), next)
        : value;
    case 'pipe':
      return def.in ? ownFieldsFor(def.in, value, next) : value;
    case 'lazy':
      return def.getter ? ownFieldsFor(def.getter(), value, next) : value;
    default:
      return WRAPPERS.has(def.type) && def.innerType ? ownFieldsFor(def.innerType, value, next) : value;
  }
}

function copyObject(value: Record<string, unknown>, def: SchemaDef, depth: number): Record<string, unknown> {
  const shape = def.shape ?? {};
  const copy: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) {
    // the shape is a plain object too: only its own keys name fields
    const field = Object.hasOwn(shape, key) ? shape[key] : def.catchall;
    const given = value[key];
    define(copy, key, field ? ownFieldsFor(field, given, depth) : given);
  }
  return copy;
}

function copyRecord(
  value: Record<string, unknown>,
  valueType: z.ZodType,
  depth: number,
): Record<string, unknown> {
  const copy: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) define(copy, key, ownFieldsFor(valueType, value[key], depth));
  return copy;
}

function copyTuple(value: readonly unknown[], def: SchemaDef, depth: number): unknown[] {
  const items = def.items ?? [];
  return value.map((item, index) => {
    const schema = index < items.length ? items[index] : def.rest;
    return schema ? ownFieldsFor(schema, item, depth) : item;
  });
}

/**
 * The option of a union that `value` is prepared for: none when an option takes any value (it
 * would get the copy); for an object, the first object option whose literal fields (a
 * discriminator) match, else the first object option; for an array, the first array option.
 */
function unionBranch(def: SchemaDef, value: unknown): z.ZodType | undefined {
  const options = def.options ?? [];
  if (options.some((option) => AS_GIVEN.has(unwrapped(option).type))) return undefined;
  const wanted = Array.isArray(value) ? ['array', 'tuple'] : ['object', 'record', 'intersection'];
  const fitting = options.filter((option) => wanted.includes(unwrapped(option).type));
  if (Array.isArray(value) || !isRecordLike(value)) return fitting[0];
  return fitting.find((option) => literalsMatch(unwrapped(option), value)) ?? fitting[0];
}

/** Whether every literal field of an object schema (a discriminator) has its value in `value`. */
function literalsMatch(def: SchemaDef, value: Record<string, unknown>): boolean {
  if (def.type !== 'object' || !def.shape) return false;
  for (const key of Object.keys(def.shape)) {
    const field = def.shape[key];
    if (!field) continue;
    const fieldDef = unwrapped(field);
    if (fieldDef.type !== 'literal') continue;
    if (!Object.hasOwn(value, key) || !(fieldDef.values ?? []).includes(value[key])) return false;
  }
  return true;
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
