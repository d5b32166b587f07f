import { ToolError } from '@toolplane/core';
import { globMatcher } from './glob-match.js';
import { type ShellWord, type SimpleCommand, normalizeCommandName, parseOptions } from './shell/index.js';

/** How a command pattern matched a command: surely, possibly (dynamic words), or not. */
export type PatternMatch = 'yes' | 'maybe' | 'no';

/**
 * A compiled command pattern such as `git status`, `npm run *` or `rm -rf *`. Tokens are
 * separated by spaces; `*` inside a token matches any characters, a final lone `*` matches
 * any remaining arguments (none included). The first token is a command name and is
 * normalized like commands are (`/bin/rm` is `rm`).
 */
export interface CommandPattern {
  readonly source: string;
  /** The first token, normalized: the command name the pattern is for (may hold `*` or `?`). */
  readonly head: string;
  /** Matches for allow rules: positional and strict, dynamic words never match a literal. */
  matchAllow(command: SimpleCommand): boolean;
  /** Matches for deny and ask rules: flags in any order and clustering, dynamic words may match. */
  matchDeny(command: SimpleCommand): PatternMatch;
}

const ELEVATORS: ReadonlySet<string> = new Set(['sudo', 'doas', 'su', 'runuser']);

function tokenMatcher(token: string): (text: string) => boolean {
  if (!/[*?]/.test(token)) return (text) => text === token;
  // Linear in the word: a command word may be 64 KiB long.
  return globMatcher(token);
}

function matchPositional(
  matchers: readonly ((text: string) => boolean)[],
  rest: boolean,
  words: readonly ShellWord[],
  extraArgs: boolean,
  lenient: boolean,
): PatternMatch {
  let result: PatternMatch = 'yes';
  for (let index = 0; index < matchers.length; index++) {
    const word = words[index];
    if (!word) return extraArgs && lenient && index > 0 ? 'maybe' : 'no';
    if (word.dynamic) {
      if (!lenient) return 'no';
      result = 'maybe';
      continue;
    }
    if (!(matchers[index] as (text: string) => boolean)(word.text)) return 'no';
  }
  if (rest) return result;
  if (words.length > matchers.length) return 'no';
  if (extraArgs) return lenient ? 'maybe' : 'no';
  return result;
}

/**
 * Compiles a command pattern; throws `CONFIG_INVALID` for an empty one.
 *
 * @example
 * compileCommandPattern('git push *').matchAllow(command);
 */
export function compileCommandPattern(source: string): CommandPattern {
  const tokens = source.trim().split(/\s+/).filter(Boolean);
  if (tokens.length === 0)
    throw new ToolError('CONFIG_INVALID', 'a command pattern is empty; write one such as "git status"');
  tokens[0] = normalizeCommandName(tokens[0] as string);
  const rest = tokens.length > 1 && tokens[tokens.length - 1] === '*';
  const positional = rest ? tokens.slice(0, -1) : tokens;
  const matchers = positional.map(tokenMatcher);
  const flagTokens = positional.slice(1).filter((token) => token.startsWith('-') && token !== '-');
  const required = parseOptions(flagTokens);
  const operandMatchers = positional
    .filter((token, index) => index === 0 || !flagTokens.includes(token))
    .map(tokenMatcher);

  const candidates = (command: SimpleCommand, allowEffective: boolean): (readonly ShellWord[])[] => {
    const list: (readonly ShellWord[])[] = [command.written];
    if (allowEffective && command.name !== '')
      list.unshift([{ text: command.name, dynamic: false, glob: false, substitutions: [] }, ...command.args]);
    return list;
  };

  return {
    source,
    head: tokens[0] as string,
    matchAllow(command) {
      // A privileged command is allowed only by a rule written with its privilege wrapper
      // (`sudo apt-get install *`), never through a nested script (`sudo bash -c '...'`).
      if (command.elevated && !ELEVATORS.has(command.written[0]?.text ?? '')) return false;
      return candidates(command, !command.elevated).some(
        (words) => matchPositional(matchers, rest, words, command.extraArgs, false) === 'yes',
      );
    },
    matchDeny(command) {
      let best: PatternMatch = 'no';
      for (const words of candidates(command, true)) {
        const head = words[0];
        if (!head) continue;
        const statics = words
          .slice(1)
          .filter((word) => !word.dynamic)
          .map((word) => word.text);
        const options = parseOptions(statics);
        const dynamicCount = words.length - 1 - statics.length;
        let flags: PatternMatch = 'yes';
        for (const letter of required.short) if (!options.short.has(letter)) flags = 'no';
        for (const name of required.long) if (!options.long.has(name)) flags = 'no';
        if (flags === 'no' && (dynamicCount > 0 || command.extraArgs)) flags = 'maybe';
        if (flags === 'no') continue;
        const operandWords: ShellWord[] = [
          head,
          ...words.slice(1).filter((word) => word.dynamic || !word.text.startsWith('-') || word.text === '-'),
        ];
        const operands = matchPositional(operandMatchers, rest, operandWords, command.extraArgs, true);
        if (operands === 'no') continue;
        const match: PatternMatch = operands === 'yes' && flags === 'yes' ? 'yes' : 'maybe';
        if (match === 'yes') return 'yes';
        best = 'maybe';
      }
      return best;
    },
  };
}
