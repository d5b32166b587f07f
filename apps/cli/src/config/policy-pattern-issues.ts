import { closestKey } from './closest-key.js';

/** A policy entry that names no tool the providers list, with the one it may have meant. */
export interface UnmatchedPattern {
  /** Field path: `['policy', 'deny', 0]`. */
  readonly path: readonly (string | number)[];
  readonly pattern: string;
  readonly message: string;
}

/** The policy lists whose entries name tools; each entry that names none changes nothing. */
const LISTS = ['allow', 'deny', 'alsoAllow', 'autoAllow', 'alwaysAsk'] as const;

/** `*` and `?` as the policy reads them (any run of characters, one character), the rest literal. */
function patternMatcher(pattern: string): (name: string) => boolean {
  if (!/[*?]/.test(pattern)) return (name) => name === pattern;
  const source = pattern
    .split('')
    .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
    .join('');
  const regex = new RegExp(`^${source}$`);
  return (name) => regex.test(name);
}

/**
 * The entry as toolplane forms names, when that form matches a tool: other clients write
 * `mcp__github__*` (Claude Code) or `github.*`, toolplane's names are `github__*`.
 */
function toolplaneForm(ref: string, names: readonly string[]): string | undefined {
  const forms = [
    ref.replace(/^mcp__/, ''),
    ref.replace(/\./g, '__'),
    ref.replace(/^mcp__/, '').replace(/\./g, '__'),
  ];
  return forms.find((form) => form !== ref && names.some(patternMatcher(form)));
}

function listsOf(policy: Record<string, unknown>): { path: (string | number)[]; refs: unknown[] }[] {
  const out: { path: (string | number)[]; refs: unknown[] }[] = [];
  for (const list of LISTS) {
    const refs = policy[list];
    if (Array.isArray(refs)) out.push({ path: ['policy', list], refs });
  }
  const agents = policy.agents;
  if (typeof agents === 'object' && agents !== null)
    for (const [id, agent] of Object.entries(agents)) {
      if (typeof agent !== 'object' || agent === null) continue;
      for (const list of ['allow', 'deny', 'alsoAllow'] as const) {
        const refs = (agent as Record<string, unknown>)[list];
        if (Array.isArray(refs)) out.push({ path: ['policy', 'agents', id, list], refs });
      }
    }
  return out;
}

/**
 * Entries of the policy's tool lists that match none of `names` (`deny: [everything__longRunningOp]`
 * after the server renamed the tool): they change nothing, which a person should hear about.
 * Groups (`group:fs`) are left to the policy; an entry that could name a tool of a provider in
 * `unlisted` (one that did not start) is not judged, as its tools are not known.
 */
export function unmatchedPolicyPatterns(
  policy: unknown,
  names: readonly string[],
  unlisted: readonly string[] = [],
): UnmatchedPattern[] {
  if (typeof policy !== 'object' || policy === null) return [];
  const namespaces = [
    ...new Set(names.filter((name) => name.includes('__')).map((name) => name.split('__')[0])),
  ];
  const candidates = [...names, ...namespaces.map((namespace) => `${namespace}__*`)];
  const out: UnmatchedPattern[] = [];
  for (const { path, refs } of listsOf(policy as Record<string, unknown>)) {
    for (const [index, ref] of refs.entries()) {
      if (typeof ref !== 'string' || ref === '' || ref.startsWith('group:')) continue;
      const unknowable =
        unlisted.length > 0 &&
        (/^[*?]/.test(ref) || unlisted.some((namespace) => ref.startsWith(`${namespace}__`)));
      if (unknowable) continue;
      const matches = patternMatcher(ref);
      if (names.some(matches)) continue;
      const meant = toolplaneForm(ref, names) ?? closestKey(ref, candidates);
      const advice =
        meant !== undefined
          ? `did you mean ${meant}?`
          : 'run `toolplane tools list` to see the names (MCP tools are named server__tool)';
      out.push({
        path: [...path, index],
        pattern: ref,
        message: `"${ref}" matches no listed tool, so this entry changes nothing: ${advice}`,
      });
    }
  }
  return out;
}
