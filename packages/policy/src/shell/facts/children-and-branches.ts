import type { ShellWord } from '../words/shell-word.js';
import { arrayName } from './array-keys.js';
import { type LineFacts, RUN_TIME, union } from './line-facts.js';
import { Variables } from './namerefs.js';

/**
 * How the facts of the line flow through the parts of it that run in a child (a subshell, a
 * pipeline stage, a substitution, `bash -c`), that may not run (after `&&`, a branch, a loop
 * body), and through the functions it defines and calls.
 */

type Snapshot = Omit<LineFacts, 'overflow'>;

function snapshot(facts: LineFacts): Snapshot {
  return { ...facts, variables: new Variables(facts.variables) };
}

/**
 * Runs `walk` for a part of the line that runs in a child (a subshell, a pipeline stage, a
 * substitution, `bash -c`, a function body defined for later): what it sets is forgotten after.
 */
export function inChild(facts: LineFacts, walk: () => void, kind?: 'subshell' | 'shell'): void {
  const before = snapshot(facts);
  // A subshell keeps `$$`, the shell it was forked from; `bash -c` is a shell of its own.
  if (kind === 'subshell') facts.shellDirectories ??= facts.processDirectories ?? facts.directories;
  if (kind) facts.processDirectories = undefined;
  if (kind === 'shell') facts.shellDirectories = undefined;
  walk();
  Object.assign(facts, before);
}

/**
 * Walks a function body where it is defined, as a child (nothing it sets is seen after the
 * definition), and keeps what it changes (its `local` names aside) for the places it is called.
 */
export function defineFunction(facts: LineFacts, name: string, walk: () => void): void {
  const before = snapshot(facts);
  const outerLocals = facts.locals;
  const locals = new Set<string>();
  facts.locals = locals;
  walk();
  const variables = new Map<string, readonly ShellWord[]>();
  for (const [variable, values] of facts.variables)
    if (before.variables.get(variable) !== values && !locals.has(arrayName(variable)))
      variables.set(variable, values);
  const directories = facts.directories !== before.directories ? facts.directories : undefined;
  Object.assign(facts, before);
  facts.locals = outerLocals;
  facts.functions.set(name, { variables, ...(directories ? { directories } : {}) });
}

/** A call of a function defined in the line: what its body changed now holds. */
export function callFunction(facts: LineFacts, name: string): void {
  const effects = facts.functions.get(name);
  if (!effects) return;
  for (const [variable, values] of effects.variables) facts.variables.set(variable, values);
  if (effects.directories) {
    facts.previous = facts.directories;
    facts.directories = effects.directories;
  }
}

/**
 * Runs `walk` for a part of the line that may or may not run (after `&&` or `||`, a branch, a
 * loop body): afterwards every value it set is possible, and so is every value before it.
 */
export function maybe(facts: LineFacts, walk: () => void): void {
  const before = snapshot(facts);
  walk();
  // Value lists are replaced, never changed in place: only the ones that differ are merged.
  for (const name of new Set([...before.variables.keys(), ...facts.variables.keys()])) {
    const was = before.variables.get(name);
    const now = facts.variables.get(name);
    if (was !== now) facts.variables.set(name, union(facts, was ?? [RUN_TIME], now ?? [RUN_TIME]));
  }
  if (before.integers !== facts.integers) facts.integers = new Set([...before.integers, ...facts.integers]);
  if (before.directories !== facts.directories)
    facts.directories = union(facts, before.directories, facts.directories);
  if (before.previous !== facts.previous) facts.previous = union(facts, before.previous, facts.previous);
  if (before.descriptors !== facts.descriptors) {
    const merged = new Map(facts.descriptors);
    for (const descriptor of new Set([...before.descriptors.keys(), ...facts.descriptors.keys()])) {
      const was = before.descriptors.get(descriptor) ?? [RUN_TIME];
      const now = facts.descriptors.get(descriptor) ?? [RUN_TIME];
      if (was !== now) merged.set(descriptor, union(facts, was, now));
    }
    facts.descriptors = merged;
  }
}
