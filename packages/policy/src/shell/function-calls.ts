import { assignWords, shiftWords } from './array-assignments.js';
import { POSITIONAL } from './arrays.js';
import { type AnalysisState, type Scope, notUnderstood } from './context.js';
import { callFunction, defineFunction, forgetVariable } from './facts.js';
import { walk } from './walk.js';
import type { ShellWord } from './shell-word.js';

/** Most calls with arguments whose function body is walked again in one command line. */
const MAX_REPLAYS = 16;

/** A body that reads its positional parameters (`$1`, `${2}`, `$@`, `$*`). */
const READS_ARGUMENTS = /\$(\{)?[1-9@*]/;

/**
 * A call of a function defined in the line with arguments: its body, judged where it was
 * defined with unknown arguments, is walked again with these (`f(){ tee "$1"; }; f /dev/sda`).
 * Returns whether it was, its changes then holding after the call.
 */
export function replayFunction(
  state: AnalysisState,
  scope: Scope,
  name: string,
  args: readonly ShellWord[],
  text: string,
): boolean {
  // `builtin cd`, `command ls`: the builtin or program runs, not the function of that name.
  const through = scope.via[scope.via.length - 1];
  if (through === 'builtin' || through === 'command') return false;
  const body = state.facts.functions.get(name)?.body;
  // Called with arguments it reads, or with descriptors open that its body may write through
  // (`f(){ tee /dev/stdin; }; f < /dev/sda`).
  const withArguments = args.length > 0 && body !== undefined && READS_ARGUMENTS.test(body.text);
  const withDescriptors =
    state.facts.descriptors.size > 0 && body !== undefined && /\/(dev|proc)\//.test(body.text);
  if (!body || !(withArguments || withDescriptors)) return false;
  if (state.replays >= MAX_REPLAYS) {
    notUnderstood(state, `functions are called with arguments more than ${MAX_REPLAYS} times`, text);
    return false;
  }
  state.replays++;
  // Walked as a function body with these arguments: what it changes (its `local` names and the
  // caller's positional parameters aside) holds after the call (`f(){ OUT=$1; }; f /dev/sda`).
  const call = `${name}\u0000${state.replays}`;
  defineFunction(state.facts, call, () => {
    state.facts.locals?.add(POSITIONAL);
    assignWords(state.facts, POSITIONAL, args);
    walk(state, { ...scope, inFunction: name }, body);
  });
  callFunction(state.facts, call);
  state.facts.functions.delete(call);
  return true;
}

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
