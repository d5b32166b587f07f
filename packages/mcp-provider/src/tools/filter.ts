import picomatch from 'picomatch';

/** Decides whether a remote tool is exposed: deny wins; no allow list means all. */
export type ToolFilter = (remoteName: string) => boolean;

/**
 * A filter from `toolsAllowed` / `toolsDenied` glob patterns (`*`, `?`, `{a,b}`, `[abc]`),
 * matched against the tool's remote name.
 *
 * @example
 * const allowed = createToolFilter(['read_*'], ['read_secret']);
 * allowed('read_file'); // true
 */
export function createToolFilter(allowed?: readonly string[], denied?: readonly string[]): ToolFilter {
  const options = { dot: true, nocase: false } as const;
  const allow = allowed && allowed.length > 0 ? picomatch([...allowed], options) : undefined;
  const deny = denied && denied.length > 0 ? picomatch([...denied], options) : undefined;
  return (remoteName) => {
    if (deny?.(remoteName)) return false;
    return allow ? allow(remoteName) : true;
  };
}
