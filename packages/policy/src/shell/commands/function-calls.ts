import { type AnalysisState, notUnderstood } from '../analysis-state.js';
import { assignWords } from '../facts/array-assignments.js';
import { POSITIONAL } from '../facts/array-keys.js';
import { callFunction, defineFunction } from '../facts/children-and-branches.js';
import type { Scope } from '../scope.js';
import type { ShellWord } from '../words/shell-word.js';

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
    state.nested.walk(state, { ...scope, inFunction: name }, body);
  });
  callFunction(state.facts, call);
  state.facts.functions.delete(call);
  return true;
}
