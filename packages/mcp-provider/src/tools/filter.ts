import { compileGlob } from './glob.js';

/** Decides whether a remote tool is exposed: deny wins; no allow list means all. */
export type ToolFilter = (remoteName: string) => boolean;

function anyOf(patterns: readonly string[]): (name: string) => boolean {
  const tests = patterns.map(compileGlob);
  return (name) => tests.some((test) => test(name));
}

/**
 * A filter from `toolsAllowed` / `toolsDenied` glob patterns (`*`, `?`, `{a,b}`, `[abc]`,
 * `[!abc]`, `\` escapes), matched against the tool's whole remote name. `*` and `?` take any
 * character, `/`, `.` and line breaks too: a tool name is not a path.
 *
 * @example
 * const allowed = createToolFilter(['read_*'], ['read_secret']);
 * allowed('read_file'); // true
 */
export function createToolFilter(allowed?: readonly string[], denied?: readonly string[]): ToolFilter {
  const allow = allowed && allowed.length > 0 ? anyOf(allowed) : undefined;
  const deny = denied && denied.length > 0 ? anyOf(denied) : undefined;
  return (remoteName) => {
    if (deny?.(remoteName)) return false;
    return allow ? allow(remoteName) : true;
  };
}
