import { formatPath } from './issue.js';
import type { ToolplaneConfig } from './schema.js';

/** `${NAME}` as the REST provider reads it from the environment (no default syntax). */
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** An environment variable a REST or OpenAPI entry of the CLI config reads, and where. */
export interface ConfigVariable {
  readonly variable: string;
  /** The config key that reads it: `openapi[0].headers.authorization`, `rest[1].file`. */
  readonly key: string;
  /** Its path, for a line number: `['openapi', 0, 'headers', 'authorization']`. */
  readonly path: readonly (string | number)[];
}

/** Every `${NAME}` in the strings of `value`, with the path of the string under `path`. */
export function variablesIn(
  value: unknown,
  path: readonly (string | number)[] = [],
): { variable: string; path: (string | number)[] }[] {
  if (typeof value === 'string')
    return [...value.matchAll(VARIABLE)].map((match) => ({ variable: match[1] as string, path: [...path] }));
  if (Array.isArray(value)) return value.flatMap((item, index) => variablesIn(item, [...path, index]));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, item]) => variablesIn(item, [...path, key]));
  return [];
}

/** Names in the order first seen, each once. */
export function variableNames(value: unknown): string[] {
  return [...new Set(variablesIn(value).map((entry) => entry.variable))];
}

/**
 * The variables one REST entry reads: its `headers`, its inline `tools`, and the tools of its
 * `file` (as read), which are reported at `rest[i].file`.
 */
export function restEntryVariables(
  config: ToolplaneConfig,
  index: number,
  fileTools?: unknown,
): ConfigVariable[] {
  const entry = config.rest?.[index];
  if (!entry) return [];
  const base = ['rest', index];
  const found = [
    ...variablesIn(entry.headers, [...base, 'headers']),
    ...variablesIn(entry.tools, [...base, 'tools']),
    ...variablesIn(fileTools).map(({ variable }) => ({ variable, path: [...base, 'file'] })),
  ];
  return found.map(({ variable, path }) => ({ variable, path, key: formatPath(path) }));
}

/** The variables one OpenAPI entry reads in its own fields (headers, credentials, baseUrl). */
export function openApiEntryVariables(config: ToolplaneConfig, index: number): ConfigVariable[] {
  const entry = config.openapi?.[index];
  if (!entry) return [];
  const base = ['openapi', index];
  const found = [
    ...variablesIn(entry.headers, [...base, 'headers']),
    ...variablesIn(entry.credentials, [...base, 'credentials']),
    ...variablesIn(entry.baseUrl, [...base, 'baseUrl']),
  ];
  return found.map(({ variable, path }) => ({ variable, path, key: formatPath(path) }));
}
