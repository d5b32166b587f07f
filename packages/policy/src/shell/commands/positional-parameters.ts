import type { AnalysisState } from '../analysis-state.js';
import { assignWords, shiftWords } from '../facts/array-assignments.js';
import { POSITIONAL } from '../facts/array-keys.js';
import { forgetVariable } from '../facts/variables.js';
import type { ShellWord } from '../words/shell-word.js';

/** `set [OPTIONS] [--] WORD...` and `shift [N]`: the positional parameters they set. */
export function setPositional(state: AnalysisState, name: string, args: readonly ShellWord[]): void {
  if (name === 'shift') {
    const count = args[0];
    if (!count) shiftWords(state.facts, POSITIONAL, 1);
    else if (!count.dynamic && /^[0-9]+$/.test(count.text))
      shiftWords(state.facts, POSITIONAL, Number(count.text));
    else forgetVariable(state.facts, POSITIONAL);
    return;
  }
  let index = 0;
  let separator = false;
  for (; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (word.dynamic) {
      forgetVariable(state.facts, POSITIONAL);
      return;
    }
    if (word.text === '--' || word.text === '-') {
      separator = true;
      index++;
      break;
    }
    if (/^[-+]o$/.test(word.text)) index++;
    else if (!/^[-+][A-Za-z]+$/.test(word.text)) break;
  }
  if (separator || index < args.length) assignWords(state.facts, POSITIONAL, args.slice(index));
}
