import type { RawServerEntry } from './formats.js';
import { type InterpolationContext, interpolate } from './interpolate.js';
import { type McpConfigProblem, createProblem } from './problems.js';

const INTERPOLATED_LISTS = ['args'] as const;
const INTERPOLATED_STRINGS = ['command', 'url', 'cwd', 'bearerToken', 'envFile'] as const;
const INTERPOLATED_MAPS = ['env', 'headers'] as const;

const INPUT = /^\$\{\s*input:([^}]*)\}$/;

/**
 * Why placeholders have no value, and how to give them one: a VS Code `${input:id}` (an input
 * without a default, which VS Code would prompt for) by the context's `inputHint`, a variable
 * by setting it or a default.
 */
function missingMessage(missing: readonly string[], context: InterpolationContext): string {
  const inputs = missing.map((placeholder) => INPUT.exec(placeholder)?.[1]?.trim());
  const variables = missing.filter((_, index) => inputs[index] === undefined);
  const parts: string[] = [];
  if (variables.length > 0)
    parts.push(
      `uses ${variables.join(', ')}, which has no value: set the variable or give a default with \${VAR:-default}`,
    );
  for (const id of inputs) {
    if (id === undefined) continue;
    const hint = context.inputHint?.(id) ?? "pass its value in the loader's `inputs` option";
    parts.push(`uses \${input:${id}}, an input without a default (VS Code would prompt for it): ${hint}`);
  }
  return parts.join('; ');
}

/**
 * A server entry with `${...}` placeholders resolved in command, args, cwd, url, bearerToken,
 * envFile and the values of env and headers; a placeholder without a value is reported to
 * `problems` and left as written.
 */
export function interpolateEntry(
  server: string,
  entry: RawServerEntry,
  context: InterpolationContext,
  problems: McpConfigProblem[],
): RawServerEntry {
  const out: RawServerEntry = { ...entry };
  const report = (field: string, missing: readonly string[]): void => {
    const nested = missing.find((placeholder) => placeholder.includes('${', 2));
    problems.push(
      createProblem(
        server,
        field,
        nested === undefined
          ? missingMessage(missing, context)
          : `nests a placeholder in another (${nested}...), which is not supported: give a default as plain text (\${VAR:-default})`,
      ),
    );
  };
  for (const key of INTERPOLATED_STRINGS) {
    const value = entry[key];
    if (typeof value !== 'string') continue;
    const outcome = interpolate(value, context);
    if (outcome.ok) out[key] = outcome.value;
    else report(key, outcome.missing);
  }
  for (const key of INTERPOLATED_LISTS) {
    const list = entry[key];
    if (!Array.isArray(list)) continue;
    out[key] = list.map((item, index) => {
      if (typeof item !== 'string') return item;
      const outcome = interpolate(item, context);
      if (outcome.ok) return outcome.value;
      report(`${key}[${index}]`, outcome.missing);
      return item;
    });
  }
  for (const key of INTERPOLATED_MAPS) {
    const map = entry[key];
    if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
    // null prototype: a "__proto__" key stays a key here (validateEntry refuses it by name)
    const resolved: Record<string, unknown> = Object.create(null);
    for (const [name, value] of Object.entries(map)) {
      if (typeof value !== 'string') {
        resolved[name] = value;
        continue;
      }
      const outcome = interpolate(value, context);
      if (outcome.ok) resolved[name] = outcome.value;
      else report(`${key}.${name}`, outcome.missing);
    }
    out[key] = resolved;
  }
  return out;
}
