/**
 * Input schemas of tools whose arguments zod parses before the tool runs ({@link defineTool}
 * notes the schema it wrote from the tool's zod schema). {@link compileSchema} compiles these
 * without checking them against the JSON Schema meta-schema: zod's generator wrote them and zod
 * is what decides the arguments, so the check would protect nothing, and building the meta-schema's
 * own validator costs 25-35 ms at a process's first call.
 */
const zodValidated = new WeakSet<object>();

/** Notes that a tool parses its arguments with zod against the schema `schema` was written from. */
export function noteZodValidated(schema: object): void {
  zodValidated.add(schema);
}

/** Whether {@link noteZodValidated} noted `schema`. */
export function isZodValidated(schema: object): boolean {
  return zodValidated.has(schema);
}
