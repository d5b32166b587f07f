import type { ToolSpec } from '@toolplane/core';

/** How many skipped tools a warning names before it counts the rest. */
const NAMED_PROBLEMS = 5;

/**
 * The tool specs a provider's `listTools()` returned, checked: a value that is not an array
 * throws (the provider cannot be used); an entry that is not an object with a non-empty string
 * `name` and an object `inputSchema` is skipped, and a `timeoutMs` or `cacheTtlMs` that is not
 * a positive number is dropped; each is reported through `warn` once per listing.
 */
export function checkSpecs(
  listed: unknown,
  namespace: string,
  warn: (message: string) => void,
): readonly ToolSpec[] {
  if (!Array.isArray(listed)) {
    throw new Error(
      `listTools() returned ${listed === null ? 'null' : typeof listed}, not an array of tool specs; this is a bug in the provider`,
    );
  }
  const problems: string[] = [];
  const specs: ToolSpec[] = [];
  for (let i = 0; i < listed.length; i++) {
    const spec: unknown = listed[i];
    const problem = specProblem(spec);
    if (problem !== undefined) {
      problems.push(`tool ${i} ${problem}`);
      continue;
    }
    specs.push(withValidNumbers(spec as ToolSpec, problems));
  }
  if (problems.length > 0) {
    const named = problems.slice(0, NAMED_PROBLEMS).join('; ');
    const more = problems.length > NAMED_PROBLEMS ? `; and ${problems.length - NAMED_PROBLEMS} more` : '';
    warn(`provider "${namespace}" listed malformed tools (${named}${more}); fix the provider`);
  }
  return specs;
}

function specProblem(spec: unknown): string | undefined {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return 'is not an object: skipped';
  const { name, inputSchema } = spec as { name?: unknown; inputSchema?: unknown };
  if (typeof name !== 'string' || name.length === 0) return 'has no name (a non-empty string): skipped';
  if (typeof inputSchema !== 'object' || inputSchema === null || Array.isArray(inputSchema))
    return `"${name.slice(0, 64)}" has no inputSchema object: skipped`;
  return undefined;
}

function withValidNumbers(spec: ToolSpec, problems: string[]): ToolSpec {
  let out = spec;
  for (const field of ['timeoutMs', 'cacheTtlMs'] as const) {
    const value: unknown = out[field];
    if (value === undefined || (typeof value === 'number' && value > 0)) continue;
    problems.push(
      `"${spec.name.slice(0, 64)}" has ${field} ${String(value)}, not a positive number: ignored`,
    );
    const { [field]: _dropped, ...rest } = out;
    out = rest as ToolSpec;
  }
  return out;
}
