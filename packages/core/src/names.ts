/** What every major LLM API accepts as a tool name. */
export const TOOL_NAME_PATTERN: RegExp = /^[a-zA-Z0-9_-]{1,64}$/;
/** Longest tool name accepted by the strictest API. */
export const TOOL_NAME_MAX_LENGTH = 64;
/** Separator between a namespace and a tool name. */
export const NAMESPACE_SEPARATOR = '__';

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * Makes any string a valid tool name: characters outside `[a-zA-Z0-9_-]` become `_`, and a
 * name over 64 characters is cut and ends with a hash of the whole name, so two long names
 * that share a prefix stay distinct and the same input always gives the same output.
 *
 * @example
 * sanitizeToolName('github.search code'); // 'github_search_code'
 */
export function sanitizeToolName(name: string): string {
  let clean = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^a-zA-Z0-9_-]/g, '_');
  if (clean.length === 0) clean = `tool_${fnv1a(name)}`;
  if (clean.length > TOOL_NAME_MAX_LENGTH) {
    clean = `${clean.slice(0, TOOL_NAME_MAX_LENGTH - 9)}_${fnv1a(name)}`;
  }
  return clean;
}

/**
 * The public name of a tool: `namespace__tool`, sanitized.
 *
 * @example
 * qualifyToolName('github', 'search_code'); // 'github__search_code'
 */
export function qualifyToolName(namespace: string | undefined, tool: string): string {
  return sanitizeToolName(namespace ? `${namespace}${NAMESPACE_SEPARATOR}${tool}` : tool);
}

/**
 * Gives each wanted name a unique valid name, in order: the first keeps it, later duplicates
 * get `_2`, `_3`... (cut to fit 64 characters). The same input list always gives the same output.
 */
export function allocateToolNames(
  wanted: readonly string[],
  taken: ReadonlySet<string> = new Set(),
): string[] {
  const used = new Set(taken);
  // The next suffix to try per base, so many names cleaning up to one base cost linear time.
  const nextSuffix = new Map<string, number>();
  const out: string[] = [];
  for (const raw of wanted) {
    const base = sanitizeToolName(raw);
    let name = base;
    let n = nextSuffix.get(base) ?? 2;
    while (used.has(name)) {
      const suffix = `_${n}`;
      name = `${base.slice(0, TOOL_NAME_MAX_LENGTH - suffix.length)}${suffix}`;
      n++;
    }
    if (name !== base) nextSuffix.set(base, n);
    used.add(name);
    out.push(name);
  }
  return out;
}

/** Splits `namespace__tool` at the first separator; no separator means no namespace. */
export function splitToolName(name: string): { namespace?: string; tool: string } {
  const at = name.indexOf(NAMESPACE_SEPARATOR);
  if (at <= 0) return { tool: name };
  return { namespace: name.slice(0, at), tool: name.slice(at + NAMESPACE_SEPARATOR.length) };
}
