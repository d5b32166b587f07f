import type { Node } from 'web-tree-sitter';
import { type AnalysisState, notUnderstood } from '../analysis-state.js';
import { defineFunction, inChild, maybe } from '../facts/children-and-branches.js';
import { RUN_TIME } from '../facts/line-facts.js';
import { assignVariable } from '../facts/variables.js';
import { stageOutputs } from '../outputs/known-outputs.js';
import { namedChildrenOf } from '../parse/shell-parser.js';
import { type Scope, addSources, knownInput } from '../scope.js';
import type { ShellWord } from '../words/shell-word.js';
import { outputReaders, valuesOf } from '../words/word-readings.js';
import { resolveFields } from './statement-words.js';

/** `a | b | c`: each stage is fed by the commands of the stages before it. */
export function handlePipeline(state: AnalysisState, scope: Scope, node: Node): void {
  let upstream: readonly string[] = scope.stdinFrom;
  // What feeds the first stage, when it is known (`cat <<'EOF' | cat | sh`).
  let text: ShellWord[] | undefined = knownInput(scope)?.slice();
  const stages = namedChildrenOf(node);
  // `a | b < file`: the grammar puts the redirection on the pipeline, bash on its last stage.
  const parent = node.parent;
  const lastFedElsewhere =
    parent?.type === 'redirected_statement' &&
    namedChildrenOf(parent).some((child) => child.id !== node.id && /^[0-9]*<(?!\()/.test(child.text));
  for (const child of stages) {
    if (!child) continue;
    if (lastFedElsewhere && child === stages[stages.length - 1]) text = undefined;
    const before = state.commands.length;
    const stage: Scope = {
      ...scope,
      stdinFrom: upstream,
      ...(text ? { stdinText: { from: upstream, values: text } } : {}),
    };
    // Every stage runs in a subshell: what one sets, the others and the rest of the line do not see.
    inChild(state.facts, () => state.nested.walk(state, stage, child), 'subshell');
    // `echo /dev/sda | xargs tee`, `cat <<< /dev/sda | xargs tee`: what a literal echo or printf
    // prints, or cat passes on, is known to the next stage.
    text = stageOutputs(child, text, outputReaders(state.facts));
    upstream = addSources(
      upstream,
      state.commands.slice(before).map((command) => command.name),
    );
  }
}

/** `a && b || c` nests to the left, one level per operator: walked as a flat sequence. */
export function handleList(state: AnalysisState, scope: Scope, node: Node): void {
  const tails: Node[][] = [];
  let head: Node | undefined = node;
  while (head?.type === 'list') {
    const children = namedChildrenOf(head);
    tails.push(children.slice(1));
    head = children[0];
  }
  if (head) state.nested.walk(state, scope, head);
  // What runs after `&&` or `||` may not run: its effects are possible afterwards, not certain.
  maybe(state.facts, () => {
    for (let index = tails.length - 1; index >= 0; index--)
      for (const child of tails[index] as Node[]) state.nested.walk(state, scope, child);
  });
}

/** `name() { ...; }`: the body is walked once here, its effects kept for the calls. */
export function handleFunction(state: AnalysisState, scope: Scope, node: Node): void {
  const name = node.childForFieldName('name')?.text ?? '';
  state.functions.add(name);
  const body = node.childForFieldName('body');
  // The body runs when called, not here: what it changes holds from its calls on.
  if (!body) return;
  defineFunction(state.facts, name, () => state.nested.walk(state, { ...scope, inFunction: name }, body));
  const effects = state.facts.functions.get(name);
  if (effects) state.facts.functions.set(name, { ...effects, body });
}

/** `for NAME in WORDS; do ...; done`: the body may run once for every word, or never. */
export function handleFor(state: AnalysisState, scope: Scope, node: Node): void {
  maybe(state.facts, () => {
    const words: ShellWord[] = [];
    let listed = false;
    let name: string | undefined;
    for (let index = 0; index < node.childCount; index++) {
      const child = node.child(index);
      if (!child?.isNamed) continue;
      const field = node.fieldNameForChild(index);
      if (field === 'variable') name = child.text;
      else if (field === 'value') {
        listed = true;
        for (const word of resolveFields(state, scope, child))
          for (const fields of word.readings ?? [[word]]) words.push(...fields);
      } else {
        // `declare -n r; for r in A B`: r names each word in turn.
        if (field === 'body' && name !== undefined && listed && state.facts.variables.isNameref(name)) {
          loopOverNames(state, scope, name, words, child);
          continue;
        }
        // `for NAME; do` loops over the positional parameters: values from outside the line.
        if (field === 'body' && name !== undefined)
          assignVariable(
            state.facts,
            name,
            listed ? words.flatMap((word) => valuesOf(state.facts, word)) : [RUN_TIME],
          );
        state.nested.walk(state, scope, child);
      }
    }
  });
}

/** Most words a `for` loop over a nameref walks its body for; more make the line asked. */
const MAX_NAMED_LOOPS = 16;

/**
 * The body of `for r in WORDS` where r is a nameref: bash makes r name each word before a
 * round, so the body is walked once per word with r naming it (a word that is not one known
 * name leaves r a plain variable with no value).
 */
function loopOverNames(
  state: AnalysisState,
  scope: Scope,
  name: string,
  words: readonly ShellWord[],
  body: Node,
): void {
  const values = words.flatMap((word) => valuesOf(state.facts, word));
  if (values.length > MAX_NAMED_LOOPS)
    notUnderstood(state, `a loop over a nameref names more than ${MAX_NAMED_LOOPS} variables`, body.text);
  for (const value of values.slice(0, MAX_NAMED_LOOPS)) {
    state.facts.variables.setNameref(name, value.dynamic ? undefined : value.text);
    state.nested.walk(state, scope, body);
  }
}
