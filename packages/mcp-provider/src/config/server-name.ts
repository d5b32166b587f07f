/** The longest server name: it prefixes every tool name, and LLM APIs take 64 characters. */
export const SERVER_NAME_MAX_LENGTH = 32;

/**
 * Server names the provider accepts (they become tool-name prefixes, `server__tool`): letters,
 * digits, `_` and `-`, at most 32 of them, with no `__` (the separator) and no `_` at the end.
 */
export const SERVER_NAME_PATTERN: RegExp = /^(?!.*__)(?!.*_$)[A-Za-z0-9_-]{1,32}$/;

const NAME_CHARACTERS = /^[A-Za-z0-9_-]+$/;

/**
 * Why a server name cannot be used, or undefined for a good one. Every rule keeps tool names
 * whole and unambiguous: the orchestrator names a tool `server__tool` and splits a name at its
 * first `__`. `__proto__` would fit the characters, but as a key of a plain object it sets the
 * prototype instead of adding a server.
 */
export function serverNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') {
    const kind =
      name === null || name === undefined
        ? String(name)
        : typeof name === 'object'
          ? 'an object'
          : `a ${typeof name}`;
    return `name must be a string, not ${kind}: name the server with letters, digits, "_" and "-"`;
  }
  if (name === '') return 'has an empty name: name the server (the name prefixes its tool names)';
  if (name === '__proto__') return 'is a reserved name: choose another name for this server';
  if (!NAME_CHARACTERS.test(name)) {
    return 'has an invalid name: use only letters, digits, "_" and "-" (it prefixes tool names)';
  }
  if (name.length > SERVER_NAME_MAX_LENGTH) {
    return `has a name of ${name.length} characters: use at most ${SERVER_NAME_MAX_LENGTH} characters (it prefixes every tool name, and LLM APIs cut a tool name at 64)`;
  }
  if (name.includes('__')) {
    return 'has "__" in its name, which separates server and tool in tool names (server "a__b" with tool "c" and server "a" with tool "b__c" would both be "a__b__c"): use a single "_" or "-"';
  }
  if (name.endsWith('_')) {
    return 'has a name that ends with "_", which runs into the "__" of its tool names ("gh_" with tool "x" is "gh___x", read as server "gh" and tool "_x"): remove the last "_"';
  }
  return undefined;
}
