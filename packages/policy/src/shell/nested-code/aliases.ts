import type { AnalysisState } from '../analysis-state.js';
import type { Scope } from '../scope.js';
import type { ShellWord } from '../words/shell-word.js';

/**
 * `alias NAME='BODY'`: a static body is parsed where it is defined, so a deny rule inside
 * denies (`alias x='tee /dev/sda'`), and kept for later uses of NAME. bash expands it only in
 * commands read after the defining line (with `shopt -s expand_aliases` when not interactive),
 * but a shell that keeps running expands it in every later command, so any later use counts.
 */
export function defineAliases(
  state: AnalysisState,
  scope: Scope,
  args: readonly ShellWord[],
  text: string,
): void {
  for (const word of args) {
    const equals = word.text.indexOf('=');
    if (word.dynamic || equals <= 0) continue;
    const name = word.text.slice(0, equals);
    const body = word.text.slice(equals + 1);
    state.facts.aliases.set(name, body);
    state.nested.analyzeScript(state, { ...scope, via: [...scope.via, `alias ${name}`] }, body, text);
  }
}

const quoted = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * A command named like an alias defined earlier in the line is also judged as the alias body
 * followed by its words (`alias x='rm -rf'; x /` as `rm -rf /`), when those words are known.
 * An alias is not expanded again inside its own body, as in bash.
 */
export function useAlias(
  state: AnalysisState,
  scope: Scope,
  name: string,
  args: readonly ShellWord[],
  text: string,
): void {
  const body = state.facts.aliases.get(name);
  const via = `alias ${name}`;
  if (body === undefined || scope.via.includes(via) || args.some((word) => word.dynamic)) return;
  const script = [body, ...args.map((word) => quoted(word.text))].join(' ');
  state.nested.analyzeScript(
    state,
    { ...scope, depth: scope.depth + 1, via: [...scope.via, via] },
    script,
    text,
  );
}
