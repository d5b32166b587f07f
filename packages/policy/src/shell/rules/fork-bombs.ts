import { type AnalysisState, report } from '../analysis-state.js';
import type { Scope } from '../scope.js';

/** Wrappers that run a builtin or a program, never a function (`ls(){ command ls -F; }` is no recursion). */
const SKIPS_FUNCTIONS: ReadonlySet<string> = new Set(['command', 'builtin']);

/**
 * Records that the function being defined around `scope` calls `name`, and denies a function
 * that calls itself directly (`:(){ :|:& };:`). Calls through `command` or `builtin` are not
 * function calls.
 */
export function recordCall(state: AnalysisState, scope: Scope, name: string, text: string): void {
  const caller = scope.inFunction;
  if (caller === undefined || SKIPS_FUNCTIONS.has(scope.via[scope.via.length - 1] ?? '')) return;
  let callees = state.calls.get(caller);
  if (!callees) {
    callees = new Set();
    state.calls.set(caller, callees);
  }
  callees.add(name);
  if (name === caller) report(state, 'deny', 'fork-bomb', `function ${name} calls itself`, text);
}

/**
 * A cycle among the functions defined in the line, as a path that ends where it starts, or
 * undefined. Functions that cannot reach a cycle are pruned first (callees before callers, as
 * in a topological sort), so the cost is linear in the number of functions and calls.
 */
function findCycle(state: AnalysisState): string[] | undefined {
  const defined = state.functions;
  const callers = new Map<string, string[]>();
  const pending = new Map<string, number>();
  for (const name of defined) pending.set(name, 0);
  for (const [caller, callees] of state.calls) {
    if (!defined.has(caller)) continue;
    for (const callee of callees) {
      if (!defined.has(callee)) continue;
      pending.set(caller, (pending.get(caller) ?? 0) + 1);
      const list = callers.get(callee);
      if (list) list.push(caller);
      else callers.set(callee, [caller]);
    }
  }
  const done = [...pending].filter(([, count]) => count === 0).map(([name]) => name);
  while (done.length > 0) {
    const name = done.pop() as string;
    for (const caller of callers.get(name) ?? []) {
      const left = (pending.get(caller) ?? 0) - 1;
      pending.set(caller, left);
      if (left === 0) done.push(caller);
    }
  }
  const start = [...pending].find(([, count]) => count > 0)?.[0];
  if (start === undefined) return undefined;
  // Every function left calls another one left: follow such calls until one repeats.
  const path: string[] = [];
  const seenAt = new Map<string, number>();
  let at = start;
  while (!seenAt.has(at)) {
    seenAt.set(at, path.length);
    path.push(at);
    const next = [...(state.calls.get(at) ?? [])].find((callee) => (pending.get(callee) ?? 0) > 0);
    if (next === undefined) return undefined; // not reached: a function left has such a callee
    at = next;
  }
  return [...path.slice(seenAt.get(at)), at];
}

const MAX_NAMES_SHOWN = 6;

/**
 * Denies functions that call each other in a cycle (`a(){ b|b& }; b(){ a|a& }; a`): the fork
 * bomb under two or more names. A function calling itself is denied where the call is seen.
 */
export function reportMutualRecursion(state: AnalysisState, text: string): void {
  const cycle = findCycle(state);
  if (!cycle || cycle.length <= 2) return; // none, or a function calling itself (reported already)
  const names =
    cycle.length <= MAX_NAMES_SHOWN
      ? cycle.join(' -> ')
      : `${cycle.slice(0, MAX_NAMES_SHOWN).join(' -> ')} -> ... (${cycle.length - 1} functions)`;
  report(state, 'deny', 'fork-bomb', `functions call each other without end (${names})`, text);
}
