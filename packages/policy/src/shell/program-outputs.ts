import { findOutputs } from './find-outputs.js';
import { type ShellWord, sliceWord } from './shell-word.js';

/** socat addresses that open a file: `FILE:`, `OPEN:`, `GOPEN:`, `CREATE:`/`CREAT:` and the path up to a `,`. */
const SOCAT_FILE = /^(?:file|open|gopen|creat|create):/i;

function socatOutputs(args: readonly ShellWord[]): ShellWord[] {
  const addresses = args.filter((word) => !word.text.startsWith('-') || word.text === '-');
  // `-u` copies the first address into the second only, `-U` the second into the first.
  const only = args.some((word) => word.text === '-u') ? 1 : args.some((word) => word.text === '-U') ? 0 : -1;
  const outputs: ShellWord[] = [];
  addresses.forEach((word, at) => {
    if (only >= 0 && at !== only) return;
    const prefix = SOCAT_FILE.exec(word.text)?.[0];
    if (!prefix || word.dynamic) return;
    const path = sliceWord(word, prefix.length);
    const comma = path.text.indexOf(',');
    outputs.push(comma < 0 ? path : { ...path, text: path.text.slice(0, comma) });
  });
  return outputs;
}

/** `openssl CMD -out FILE` (also `-keyout`): options with one dash and a separate value. */
function opensslOutputs(args: readonly ShellWord[]): ShellWord[] {
  const outputs: ShellWord[] = [];
  args.forEach((word, at) => {
    const next = args[at + 1];
    if (next && !word.dynamic && (word.text === '-out' || word.text === '-keyout')) outputs.push(next);
  });
  return outputs;
}

/**
 * The files a program writes that its options name in a shape of its own (not getopt's):
 * `find -fprint FILE`, `openssl ... -out FILE`, `socat ... FILE:PATH`; undefined for others.
 */
export function programOutputs(name: string, args: readonly ShellWord[]): ShellWord[] | undefined {
  if (name === 'find') return findOutputs(args);
  if (name === 'openssl') return opensslOutputs(args);
  if (name === 'socat') return socatOutputs(args);
  return undefined;
}
