/** Short option letters and long option names before `--` or the first operand, for flag checks. */
export interface ParsedOptions {
  readonly short: ReadonlySet<string>;
  readonly long: ReadonlySet<string>;
  readonly operands: readonly string[];
}

/** Splits arguments into option letters (`-rf` is r and f), long options and operands. */
export function parseOptions(args: readonly string[]): ParsedOptions {
  const short = new Set<string>();
  const long = new Set<string>();
  const operands: string[] = [];
  let optionsDone = false;
  for (const arg of args) {
    if (optionsDone || arg === '-' || !arg.startsWith('-')) {
      operands.push(arg);
      continue;
    }
    if (arg === '--') {
      optionsDone = true;
      continue;
    }
    if (arg.startsWith('--')) {
      long.add(arg.slice(2).split('=')[0] as string);
      continue;
    }
    for (const letter of arg.slice(1)) short.add(letter);
  }
  return { short, long, operands };
}

/**
 * Whether a word is a cluster of short options holding `letter` before anything but letters
 * (`-xc` and `-c1` hold c; `-1c` does not).
 */
export function inOptionCluster(text: string, letter: string): boolean {
  return new RegExp(`^-[a-zA-Z]*${letter}`).test(text);
}
