import { ToolError, allocateToolNames, sanitizeToolName } from '@toolplane/core';
import type { NormalizedOperation } from './operation-model.js';
import { trimText } from './text.js';

/** A tool name for an operation without an operationId: method and path (`get_repos_by_owner`). */
export function fallbackName(operation: NormalizedOperation): string {
  const parts = operation.path
    .split('/')
    .filter(Boolean)
    .map((segment) =>
      segment.startsWith('{') && segment.endsWith('}') ? `by_${segment.slice(1, -1)}` : segment,
    );
  return sanitizeToolName([operation.method.toLowerCase(), ...parts].join('_'));
}

/** What the model reads about an operation: summary and description, trimmed to `max`. */
export function describeOperation(operation: NormalizedOperation, max: number): string {
  const summary = operation.summary?.trim();
  const description = operation.description?.trim();
  let text =
    summary && description && !description.startsWith(summary)
      ? `${summary}\n\n${description}`
      : (description ?? summary ?? '');
  if (!text) text = `${operation.method} ${operation.path}`;
  if (operation.deprecated) text = `Deprecated. ${text}`;
  return trimText(text, max);
}

/** Argument names of an operation's parameters (prefixed by place where names clash) and its body. */
export function argumentNames(operation: NormalizedOperation): { parameters: string[]; body: string } {
  const taken = new Set<string>();
  const counts = new Map<string, number>();
  for (const parameter of operation.parameters)
    counts.set(parameter.name, (counts.get(parameter.name) ?? 0) + 1);
  const parameters = operation.parameters.map((parameter) => {
    // "__proto__" is no usable property name in a JSON Schema validator: prefix it like a clash
    let name =
      (counts.get(parameter.name) ?? 0) > 1 || parameter.name === '__proto__'
        ? `${parameter.in}_${parameter.name}`
        : parameter.name;
    for (let n = 2; taken.has(name); n++) name = `${parameter.in}_${parameter.name}_${n}`;
    taken.add(name);
    return name;
  });
  let body = 'body';
  for (let n = 2; taken.has(body); n++) body = n === 2 ? 'request_body' : `request_body_${n}`;
  return { parameters, body };
}

/**
 * Tool names of the selected operations: the operationId or {@link fallbackName}, sanitized,
 * duplicates numbered (`_2`); a missing operationId is noted in `warnings`, and a duplicate
 * throws `CONFIG_INVALID` when `strict`. `wanted` is each operation's name before allocation.
 */
export function operationToolNames(
  selected: readonly NormalizedOperation[],
  strict: boolean,
  warnings: string[],
): { wanted: string[]; names: string[] } {
  const wanted = selected.map((operation) => operation.operationId ?? fallbackName(operation));
  const seen = new Set<string>();
  for (const [index, name] of wanted.entries()) {
    const operation = selected[index] as NormalizedOperation;
    if (!operation.operationId)
      warnings.push(`${operation.label} has no operationId; named it ${sanitizeToolName(name)}`);
    const clean = sanitizeToolName(name);
    if (seen.has(clean) && strict) {
      throw new ToolError(
        'CONFIG_INVALID',
        `${operation.label}: the tool name ${clean} is used twice; give the operations distinct operationIds`,
      );
    }
    seen.add(clean);
  }
  // an operationId that is a clean name already is that operation's own: it goes first, so a
  // suffixed duplicate (a_b_2) or a name made from a path (get_5) never takes it
  const names: (string | undefined)[] = wanted.map(() => undefined);
  const used = new Set<string>();
  for (const [index, operation] of selected.entries()) {
    const id = operation.operationId;
    if (id === undefined || sanitizeToolName(id) !== id || used.has(id)) continue;
    names[index] = id;
    used.add(id);
  }
  const rest = wanted.flatMap((_name, index) => (names[index] === undefined ? [index] : []));
  const allocated = allocateToolNames(
    rest.map((index) => wanted[index] as string),
    used,
  );
  for (const [position, index] of rest.entries()) names[index] = allocated[position];
  return { wanted, names: names as string[] };
}
