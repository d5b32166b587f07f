/**
 * How deep a tool definition may nest objects and arrays. Real schemas nest a few dozen levels;
 * one nested thousands deep overflowed the stack of every recursive walk after it (the
 * definition hash, ajv), and the whole listing failed with "Maximum call stack size exceeded".
 */
export const MAX_DEFINITION_DEPTH = 100;

/** Whether `value` is a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Why a tool definition cannot be offered, or undefined for a usable one (its top level only:
 * how deep it nests is checked where it arrives).
 */
export function toolProblem(tool: unknown): string | undefined {
  if (!isRecord(tool)) return 'is not an object';
  if (typeof tool.name !== 'string' || tool.name === '') return 'has no name';
  if (!isRecord(tool.inputSchema) || tool.inputSchema.type !== 'object') {
    return 'has an inputSchema that is not a JSON Schema object of type "object"';
  }
  if (tool.outputSchema !== undefined && !isRecord(tool.outputSchema)) {
    return 'has an outputSchema that is not an object';
  }
  for (const field of ['description', 'title'] as const) {
    if (tool[field] !== undefined && typeof tool[field] !== 'string')
      return `has a ${field} that is not a string`;
  }
  if (tool.annotations !== undefined && !isRecord(tool.annotations))
    return 'has annotations that are not an object';
  return undefined;
}
