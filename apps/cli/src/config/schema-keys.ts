import type { z } from 'zod';

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  valueType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
};

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** The object schemas a value at `path` may be, through optional, default, record, array and union. */
function objectsAt(schema: z.ZodType, path: readonly PropertyKey[]): Def[] {
  const def = defOf(schema);
  if (def.innerType) return objectsAt(def.innerType, path);
  if (def.type === 'pipe' && def.in) return objectsAt(def.in, path);
  if (def.type === 'union') return (def.options ?? []).flatMap((option) => objectsAt(option, path));
  if (path.length === 0) return def.type === 'object' ? [def] : [];
  const [head, ...rest] = path;
  if (def.type === 'object' && typeof head === 'string' && def.shape?.[head])
    return objectsAt(def.shape[head], rest);
  if (def.type === 'record' && def.valueType) return objectsAt(def.valueType, rest);
  if (def.type === 'array' && def.element && typeof head === 'number') return objectsAt(def.element, rest);
  return [];
}

/**
 * The keys an object at `path` of `schema` has (`['policy']` -> allow, deny, profile...), for
 * "did you mean" on an unknown field; empty when the path leads to no object.
 */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  return [...new Set(objectsAt(schema, path).flatMap((def) => Object.keys(def.shape ?? {})))];
}
