import type { ShellWord } from '../words/shell-word.js';

/**
 * The command `env -S STRING [ARG...]` runs, as text to parse: STRING (from `-S STRING`,
 * `-SSTRING`, a cluster ending in S such as `-iS`, or `--split-string[=]STRING` by any prefix of
 * 4 or more letters) followed by the words after it; undefined when it is not there or not
 * static. env splits STRING by rules of its own; reading it as shell text only adds deny
 * findings, the command stays asked.
 */
export function splitStringCommand(args: readonly ShellWord[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (word.dynamic) return undefined;
    const text = word.text;
    let value: string | undefined;
    let next = index + 1;
    const long = /^--(s[a-z-]*)(?:=(.*))?$/s.exec(text);
    if (long && (long[1] as string).length >= 3 && 'split-string'.startsWith(long[1] as string)) {
      value = long[2] ?? args[next++]?.text;
    } else if (/^-[^-]/.test(text) && text.includes('S')) {
      const rest = text.slice(text.indexOf('S') + 1);
      value = rest !== '' ? rest : args[next++]?.text;
    } else continue;
    if (value === undefined) return undefined;
    const after = args.slice(next);
    if (after.some((later) => later.dynamic)) return undefined;
    return [value, ...after.map((later) => later.text)].join(' ');
  }
  return undefined;
}
