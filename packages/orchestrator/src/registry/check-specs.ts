import type { ToolSpec } from '@toolplane/core';
import { thrownMessage } from '../call/thrown.js';

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
  const names = new Set<string>();
  for (let i = 0; i < listed.length; i++) {
    const spec = plainCopy(listed[i]);
    const problem = typeof spec === 'string' ? spec : specProblem(spec, names);
    if (problem !== undefined) {
      problems.push(`tool ${i} ${problem}`);
      continue;
    }
    const checked = spec as ToolSpec;
    names.add(checked.name);
    specs.push(withValidNumbers(checked, problems));
  }
  if (problems.length > 0) {
    const named = problems.slice(0, NAMED_PROBLEMS).join('; ');
    const more = problems.length > NAMED_PROBLEMS ? `; and ${problems.length - NAMED_PROBLEMS} more` : '';
    warn(`provider "${namespace}" listed malformed tools (${named}${more}); fix the provider`);
  }
  return specs;
}

/**
 * A spec's own fields copied once into a plain object, so a getter or Proxy is read here and
 * never again; why not, when reading it throws (the entry is skipped, not the whole provider).
 */
function plainCopy(spec: unknown): unknown {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return spec;
  try {
    return { ...spec };
  } catch (error) {
    return `cannot be read (${thrownMessage(error)}): skipped`;
  }
}

/** Nothing but white space and invisible format characters (zero-width spaces and joiners). */
const BLANK = /^[\s\p{Cf}]*$/u;

/** A name quoted with what cannot be seen written as escapes (`"\t"`, `"\u200b"`). */
function visible(name: string): string {
  return JSON.stringify(name.slice(0, 64)).replace(
    /[^\x20-\x7e]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function specProblem(spec: unknown, names: ReadonlySet<string>): string | undefined {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return 'is not an object: skipped';
  const { name, inputSchema } = spec as { name?: unknown; inputSchema?: unknown };
  if (typeof name !== 'string' || name.length === 0) return 'has no name (a non-empty string): skipped';
  // sanitized, a blank name would be listed as underscores: a name no model can tell apart
  if (BLANK.test(name)) return `has a blank name (${visible(name)}): skipped`;
  const shown = `"${name.slice(0, 64)}"`;
  if (typeof inputSchema !== 'object' || inputSchema === null || Array.isArray(inputSchema))
    return `${shown} has no inputSchema object: skipped`;
  if (names.has(name)) return `${shown} is listed twice: the second is skipped`;
  const type: unknown = (inputSchema as { type?: unknown }).type;
  if (type !== undefined && type !== 'object' && !(Array.isArray(type) && type.includes('object')))
    return `${shown} has an inputSchema of type ${JSON.stringify(type)?.slice(0, 40)}, not "object" (arguments are always an object, so it could never be called): skipped`;
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
