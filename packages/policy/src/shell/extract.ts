import type { Node, Parser } from 'web-tree-sitter';
import type { CommandLineAnalysis } from './analysis.js';
import {
  type AnalysisState,
  MAX_NESTING,
  MAX_TREE_DEPTH,
  ROOT_SCOPE,
  type Scope,
  addSources,
  notUnderstood,
  report,
} from './context.js';
import { childrenOf, namedChildrenOf, withShellTree } from './parser.js';
import { DANGEROUS_VARIABLE } from './programs.js';
import { reportMutualRecursion } from './recursion.js';
import { runCommand } from './run-command.js';
import {
  assignVariable,
  createFacts,
  defineFunction,
  RUN_TIME,
  forgetVariable,
  inChild,
  maybe,
  readingsOf,
  valuesOf,
  withVariables,
} from './facts.js';
import { type ShellWord, resolveWord } from './words.js';
import { recordRead } from './assignments.js';
import { throughLinks } from './links.js';
import { inDirectory } from './working-directory.js';
import { judgeWrittenFile } from './written-files.js';

/** Node types that only group statements; their children are walked. */
const CONTAINERS = new Set([
  'program',
  'compound_statement',
  'subshell',
  'do_group',
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
  'case_statement',
  'case_item',
  'negated_command',
  'test_command',
  'binary_expression',
  'unary_expression',
  'ternary_expression',
  'postfix_expression',
  'parenthesized_expression',
  'arithmetic_expansion',
  'c_style_for_statement',
  'for_statement',
  'subscript',
]);

/** Word-like nodes: resolved as words so their substitutions are analyzed. */
const WORDS = new Set([
  'word',
  'string',
  'raw_string',
  'ansi_c_string',
  'translated_string',
  'concatenation',
  'simple_expansion',
  'expansion',
  'number',
  'variable_name',
  'test_operator',
  'regex',
  'extglob_pattern',
  'brace_expression',
  'string_content',
]);

const QUIET_OUTPUTS = /^(\/dev\/(null|stdout|stderr|fd\/[0-9]+)|[0-9]+|-)$/;

function analyzeSubstitutions(state: AnalysisState, scope: Scope, word: ShellWord): void {
  for (const substitution of word.substitutions) {
    const before = state.commands.length;
    // `>(cmd)` reads the outer command's output: treat it as fed by a pipe.
    const feedsInput = substitution.type === 'process_substitution' && substitution.text.startsWith('>(');
    inChild(state.facts, () =>
      walkChildren(
        state,
        { ...scope, stdinFrom: feedsInput ? [...scope.stdinFrom, '>(...)'] : [] },
        substitution,
      ),
    );
    state.substitutionNames.set(
      substitution.id,
      state.commands.slice(before).map((command) => command.name),
    );
  }
}

function resolve(state: AnalysisState, scope: Scope, node: Node): ShellWord {
  const word = resolveWord(node);
  if (word.incomplete) notUnderstood(state, 'a word is nested too deeply to analyze', node.text);
  analyzeSubstitutions(state, scope, word);
  const readings = readingsOf(state.facts, word);
  return readings ? { ...word, readings } : word;
}

/** A variable assignment the following commands see: `NAME=value`, `NAME+=value`. */
interface Assignment {
  readonly name: string;
  readonly values: readonly ShellWord[];
}

/**
 * Checks an assignment (its substitutions run, some variables change what runs) and returns
 * what it assigns; an array element (`a[0]=x`) or an array (`a=(x y)`) assigns nothing followed.
 */
function checkAssignment(
  state: AnalysisState,
  scope: Scope,
  node: Node,
  text: string,
): Assignment | undefined {
  const target = node.childForFieldName('name');
  // `arr[$(cmd)]=1` runs cmd; `PATH[0]=...` assigns PATH.
  const subscript = target?.type === 'subscript' ? target : undefined;
  const index = subscript?.childForFieldName('index');
  if (index) walk(state, scope, index);
  const name = (subscript ? subscript.childForFieldName('name')?.text : target?.text) ?? '';
  const value = node.childForFieldName('value');
  const word = value ? resolve(state, scope, value) : undefined;
  if (DANGEROUS_VARIABLE.test(name))
    notUnderstood(state, `setting ${name} changes what later commands run`, text);
  if (subscript || value?.type === 'array') return undefined;
  const append = childrenOf(node).some((child) => child && !child.isNamed && child.text === '+=');
  const values = valuesOf(state.facts, word);
  if (!append) return { name, values };
  assignVariable(state.facts, name, values, true);
  return { name, values: state.facts.variables.get(name) ?? values };
}

/** Checks an assignment that stays for the rest of the line (`NAME=value;`, `export NAME=value`). */
function assign(state: AnalysisState, scope: Scope, node: Node, text: string): void {
  const assignment = checkAssignment(state, scope, node, text);
  if (assignment) assignVariable(state.facts, assignment.name, assignment.values);
}

/** `declare -n NAME=TARGET`: NAME reads TARGET's values. */
function aliasVariable(state: AnalysisState, scope: Scope, node: Node, text: string): void {
  const assignment = checkAssignment(state, scope, node, text);
  const target = assignment?.values.length === 1 ? assignment.values[0] : undefined;
  if (!assignment || !target || target.dynamic) return;
  assignVariable(state.facts, assignment.name, state.facts.variables.get(target.text) ?? [RUN_TIME]);
}

function handleCommand(state: AnalysisState, scope: Scope, node: Node): void {
  const words: ShellWord[] = [];
  const assignments: Assignment[] = [];
  for (let index = 0; index < node.childCount; index++) {
    const child = node.child(index);
    if (!child) continue;
    const field = node.fieldNameForChild(index);
    if (child.type === 'variable_assignment') {
      // `OUT=x cmd "$OUT"`: cmd's words still see the old value, the programs it starts the new one.
      const assignment = checkAssignment(state, scope, child, node.text);
      if (assignment) assignments.push(assignment);
    } else if (field === 'name') {
      const inner = child.namedChild(0) ?? child;
      words.push(resolve(state, scope, inner));
    } else if (field === 'argument') words.push(resolve(state, scope, child));
    else if (field === 'redirect' || child.type.endsWith('_redirect')) handleRedirect(state, scope, child);
    else if (child.isNamed && child.type !== 'comment') {
      notUnderstood(state, `unexpected ${child.type} in a command`, child.text);
      walk(state, scope, child);
    }
  }
  const herestring = namedChildrenOf(node).find((child) => child.type === 'herestring_redirect');
  const commandScope = herestring ? { ...scope, stdinFrom: [...scope.stdinFrom, '<<<'] } : scope;
  withVariables(state.facts, assignments, () => {
    if (herestring) shellFromHerestring(state, commandScope, words, herestring);
    else runCommand(state, commandScope, words, node.text, analyzeNested);
  });
  // `read -r A B <<< "x y"` sets A and B from the herestring (with the default IFS only).
  const body = herestring?.namedChild(0);
  const head = words[0];
  if (body && head && !head.dynamic && head.text === 'read' && assignments.length === 0) {
    const input = resolveWord(body);
    const readings = readingsOf(state.facts, input);
    recordRead(state.facts, 'read', words.slice(1), readings ? { ...input, readings } : input);
  }
}

/**
 * `bash <<< 'cmd'` runs the string, `at now <<< 'cmd'` runs it later: parse it when static;
 * otherwise judge the command normally.
 */
function shellFromHerestring(state: AnalysisState, scope: Scope, words: ShellWord[], redirect: Node): void {
  const head = words[0];
  const body = redirect.namedChild(0);
  const isShell = head && !head.dynamic && /(^|\/)(ba|da|z|k|mk)?sh$/.test(head.text) && words.length === 1;
  const isScheduler = head && !head.dynamic && /(^|\/)(at|batch)$/.test(head.text);
  if ((isShell || isScheduler) && body) {
    const text = resolveWord(body);
    if (!text.dynamic) {
      const bodyScope = { ...scope, stdinFrom: [] }; // the herestring replaces standard input
      analyzeNested(
        state,
        { ...bodyScope, via: [...scope.via, `${head.text} <<<`] },
        text.text,
        redirect.text,
      );
      if (isScheduler)
        runCommand(state, bodyScope, words, redirect.parent?.text ?? redirect.text, analyzeNested);
      return;
    }
  }
  runCommand(state, scope, words, redirect.parent?.text ?? redirect.text, analyzeNested);
}

function handleRedirect(state: AnalysisState, scope: Scope, node: Node): void {
  if (node.type === 'heredoc_redirect') return; // handled with the statement it feeds
  if (node.type === 'herestring_redirect') {
    const body = node.namedChild(0);
    if (body) resolve(state, scope, body);
    return;
  }
  // The grammar does not know `<>` (open for reading and writing): it leaves an error node there.
  if (node.isError || node.hasError) notUnderstood(state, 'a redirection does not parse', node.text);
  const destination = node.childForFieldName('destination');
  let operator = '';
  for (const child of childrenOf(node))
    if (child && (!child.isNamed || child.isError) && child.id !== destination?.id) operator += child.text;
  if (!destination) return;
  const target = resolve(state, scope, destination);
  if (/\/dev\/(tcp|udp)\//.test(target.text)) {
    report(state, 'deny', 'reverse-shell', 'redirects to a /dev/tcp or /dev/udp connection', node.text);
    return;
  }
  const writes = operator.includes('>');
  if (!writes) return;
  if (judgeWrittenFile(state, target, node.text)) return;
  if (operator.includes('&') && !target.dynamic && /^[0-9-]+$/.test(target.text)) return;
  // A relative path lands in the directory a `cd` earlier in the line led to, through its links.
  for (const directory of state.facts.directories) {
    const path = throughLinks(state.facts, inDirectory(directory, target));
    if (path.dynamic) state.writes.push('<computed>');
    else if (!QUIET_OUTPUTS.test(path.text)) state.writes.push(path.text);
  }
}

function handleRedirectedStatement(state: AnalysisState, scope: Scope, node: Node): void {
  const body = node.childForFieldName('body');
  const redirects = namedChildrenOf(node).filter((child) => child.id !== body?.id);
  let bodyScope = scope;
  for (const redirect of redirects) {
    if (redirect.type === 'heredoc_redirect')
      bodyScope = { ...bodyScope, stdinFrom: [...bodyScope.stdinFrom, '<<heredoc'] };
    else if (redirect.type === 'file_redirect') {
      let operator = '';
      for (const child of childrenOf(redirect)) if (child && !child.isNamed) operator += child.text;
      // `< /dev/null` gives no input at all.
      const from = redirect.childForFieldName('destination')?.text;
      if (operator === '<' && from !== '/dev/null')
        bodyScope = { ...bodyScope, stdinFrom: [...bodyScope.stdinFrom, '<file'] };
    }
  }
  const before = state.commands.length;
  if (body) walk(state, bodyScope, body);
  const bodyNames = state.commands.slice(before).map((command) => command.name);
  for (const redirect of redirects) {
    if (redirect.type === 'heredoc_redirect') {
      // A heredoc may carry the rest of a pipeline (`cat <<EOF | sh`); its body is text, not commands.
      for (const child of namedChildrenOf(redirect)) {
        if (!child) continue;
        if (child.type === 'heredoc_body') analyzeHeredocBody(state, scope, redirect, child);
        else if (child.type.startsWith('heredoc_')) continue;
        else if (child.type.endsWith('_redirect')) handleRedirect(state, scope, child);
        else walk(state, { ...scope, stdinFrom: addSources(scope.stdinFrom, bodyNames) }, child);
      }
    } else handleRedirect(state, scope, redirect);
  }
}

/**
 * An unquoted heredoc body is expanded like a double-quoted string: its `$(...)` and
 * backticks run. Tree-sitter leaves backticks (and everything after `<<-`) as plain text, so
 * the body text is scanned here and every substitution in it is parsed as a script.
 */
function analyzeHeredocBody(state: AnalysisState, scope: Scope, redirect: Node, body: Node): void {
  const start = namedChildrenOf(redirect).find((child) => child.type === 'heredoc_start');
  if (!start || /['"\\]/.test(start.text)) return; // a quoted delimiter: the body is literal
  const text = body.text.replace(/\\[\\`$]/g, '  ');
  const inner = { ...scope, depth: scope.depth + 1, stdinFrom: [] };
  let index = 0;
  while (index < text.length) {
    const dollar = text.indexOf('$(', index);
    const tick = text.indexOf('`', index);
    if (dollar < 0 && tick < 0) return;
    if (tick >= 0 && (dollar < 0 || tick < dollar)) {
      const close = text.indexOf('`', tick + 1);
      if (close < 0) {
        notUnderstood(state, 'a heredoc has an unterminated backtick', body.text);
        return;
      }
      analyzeNested(state, inner, text.slice(tick + 1, close), body.text);
      index = close + 1;
    } else if (text[dollar + 2] === '(') {
      index = dollar + 3; // arithmetic: substitutions inside it are found by the scan
    } else {
      let open = 1;
      let at = dollar + 2;
      for (; at < text.length && open > 0; at++) {
        if (text[at] === '(') open++;
        else if (text[at] === ')') open--;
      }
      if (open > 0) {
        notUnderstood(state, 'a heredoc has an unterminated $(', body.text);
        return;
      }
      analyzeNested(state, inner, text.slice(dollar + 2, at - 1), body.text);
      index = at;
    }
  }
}

function handlePipeline(state: AnalysisState, scope: Scope, node: Node): void {
  let upstream: readonly string[] = scope.stdinFrom;
  for (const child of namedChildrenOf(node)) {
    if (!child) continue;
    const before = state.commands.length;
    // Every stage runs in a subshell: what one sets, the others and the rest of the line do not see.
    inChild(state.facts, () => walk(state, { ...scope, stdinFrom: upstream }, child));
    upstream = addSources(
      upstream,
      state.commands.slice(before).map((command) => command.name),
    );
  }
}

/** `a && b || c` nests to the left, one level per operator: walked as a flat sequence. */
function handleList(state: AnalysisState, scope: Scope, node: Node): void {
  const tails: Node[][] = [];
  let head: Node | undefined = node;
  while (head?.type === 'list') {
    const children = namedChildrenOf(head);
    tails.push(children.slice(1));
    head = children[0];
  }
  if (head) walk(state, scope, head);
  // What runs after `&&` or `||` may not run: its effects are possible afterwards, not certain.
  maybe(state.facts, () => {
    for (let index = tails.length - 1; index >= 0; index--)
      for (const child of tails[index] as Node[]) walk(state, scope, child);
  });
}

function handleFunction(state: AnalysisState, scope: Scope, node: Node): void {
  const name = node.childForFieldName('name')?.text ?? '';
  state.functions.add(name);
  const body = node.childForFieldName('body');
  // The body runs when called, not here: what it changes holds from its calls on.
  if (body) defineFunction(state.facts, name, () => walk(state, { ...scope, inFunction: name }, body));
}

/** `for NAME in WORDS; do ...; done`: the body may run once for every word, or never. */
function handleFor(state: AnalysisState, scope: Scope, node: Node): void {
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
        const word = resolve(state, scope, child);
        for (const fields of word.readings ?? [[word]]) words.push(...fields);
      } else {
        // `for NAME; do` loops over the positional parameters: values from outside the line.
        if (field === 'body' && name !== undefined)
          assignVariable(
            state.facts,
            name,
            listed ? words.flatMap((word) => valuesOf(state.facts, word)) : [RUN_TIME],
          );
        walk(state, scope, child);
      }
    }
  });
}

function walkChildren(state: AnalysisState, scope: Scope, node: Node): void {
  for (const child of namedChildrenOf(node)) if (child) walk(state, scope, child);
}

function walk(state: AnalysisState, scope: Scope, node: Node): void {
  if (state.treeDepth >= MAX_TREE_DEPTH) {
    notUnderstood(state, `the command line nests deeper than ${MAX_TREE_DEPTH} levels`, node.text);
    return;
  }
  state.treeDepth++;
  walkNode(state, scope, node);
  state.treeDepth--;
}

function walkNode(state: AnalysisState, scope: Scope, node: Node): void {
  if (node.isError || node.isMissing) {
    notUnderstood(state, 'the command line does not parse', node.text);
    walkChildren(state, scope, node);
    return;
  }
  switch (node.type) {
    case 'command':
      handleCommand(state, scope, node);
      return;
    case 'pipeline':
      handlePipeline(state, scope, node);
      return;
    case 'list':
      handleList(state, scope, node);
      return;
    case 'redirected_statement':
      handleRedirectedStatement(state, scope, node);
      return;
    case 'function_definition':
      handleFunction(state, scope, node);
      return;
    case 'subshell':
      inChild(state.facts, () => walkChildren(state, scope, node));
      return;
    case 'for_statement':
      handleFor(state, scope, node);
      return;
    case 'if_statement':
    case 'case_statement':
    case 'while_statement':
    case 'c_style_for_statement':
      maybe(state.facts, () => walkChildren(state, scope, node));
      return;
    case 'variable_assignment':
      assign(state, scope, node, node.text);
      return;
    case 'variable_assignments':
      walkChildren(state, scope, node);
      return;
    case 'declaration_command':
    case 'unset_command': {
      // In a function, `local` and `declare` (without -g) make names that vanish at its return.
      const keyword = node.child(0)?.text ?? '';
      const local =
        state.facts.locals &&
        (keyword === 'local' ||
          ((keyword === 'declare' || keyword === 'typeset') &&
            !namedChildrenOf(node).some((child) => child && /^-[a-zA-Z]*g/.test(child.text))));
      for (const child of namedChildrenOf(node)) {
        if (!child) continue;
        if (local)
          state.facts.locals?.add(
            (child.type === 'variable_assignment' ? child.childForFieldName('name')?.text : child.text) ?? '',
          );
      }
      // `declare -n R=OUT`: R names OUT (its values now are followed, not later changes).
      const nameref = namedChildrenOf(node).some(
        (child) => child?.type === 'word' && /^-[a-zA-Z]*n/.test(child.text),
      );
      for (const child of namedChildrenOf(node)) {
        if (!child) continue;
        if (child.type === 'variable_assignment' && nameref) aliasVariable(state, scope, child, node.text);
        else if (child.type === 'variable_assignment') assign(state, scope, child, node.text);
        else if (node.type === 'unset_command' && child.type === 'variable_name')
          forgetVariable(state.facts, child.text);
        else if (
          child.type === 'variable_name' &&
          DANGEROUS_VARIABLE.test(child.text) &&
          node.type === 'declaration_command'
        )
          notUnderstood(state, `changing ${child.text} changes what later commands run`, node.text);
        else resolve(state, scope, child);
      }
      return;
    }
    case 'command_substitution':
    case 'process_substitution':
      analyzeSubstitutions(state, scope, { text: '', dynamic: true, glob: false, substitutions: [node] });
      return;
    case 'comment':
    case 'heredoc_body':
    case 'heredoc_start':
    case 'heredoc_end':
      return;
    default:
      if (WORDS.has(node.type)) {
        resolve(state, scope, node);
        return;
      }
      if (!CONTAINERS.has(node.type)) notUnderstood(state, `${node.type} is not analyzed`, node.text);
      walkChildren(state, scope, node);
  }
}

/**
 * Most `|` characters a script may hold to be parsed. The grammar keeps two readings of a
 * pipeline alive after a word such as `-s` and its memory grows with the square of the
 * stages: 8,000 stages take a gigabyte and 13,000 abort the WebAssembly module for the rest
 * of the process. Real pipelines have a handful of stages.
 */
const MAX_PIPES = 1000;

/** Parses a script and walks it, unless it has too many pipes (then it is not understood). */
function parseBounded(state: AnalysisState, scope: Scope, script: string, text: string): void {
  let pipes = 0;
  for (let at = script.indexOf('|'); at >= 0 && pipes <= MAX_PIPES; at = script.indexOf('|', at + 1)) pipes++;
  if (pipes > MAX_PIPES) {
    notUnderstood(
      state,
      `the command line has more than ${MAX_PIPES} "|" characters and is not parsed`,
      text,
    );
    return;
  }
  withShellTree(state.parser, script, (root) => walk(state, scope, root));
}

function analyzeNested(state: AnalysisState, scope: Scope, script: string, text: string): void {
  if (scope.depth > MAX_NESTING) {
    notUnderstood(state, 'commands nested too deeply to follow', text);
    return;
  }
  parseBounded(state, scope, script, text);
}

/**
 * Analyzes a command line: every simple command (through pipelines, lists, subshells,
 * substitutions, functions and wrappers), the default deny rules, file writes by redirection,
 * and every construct that was not understood.
 *
 * @example
 * const parser = await loadShellParser();
 * analyzeCommandLine(parser, 'ls && rm -rf /').findings[0]?.category; // 'destructive-file-operation'
 */
export function analyzeCommandLine(parser: Parser, source: string): CommandLineAnalysis {
  const state: AnalysisState = {
    parser,
    commands: [],
    findings: [],
    writes: [],
    functions: new Set(),
    calls: new Map(),
    substitutionNames: new Map(),
    facts: createFacts(),
    treeDepth: 0,
  };
  // No shell can receive a NUL byte (argv and `bash -c` strings end at it): what runs is unclear.
  if (source.includes('\u0000')) notUnderstood(state, 'the command line contains a NUL character', source);
  parseBounded(state, ROOT_SCOPE, source, source);
  let overflow = state.facts.overflow;
  // Bash removes backslash-newline before splitting words (`r\<newline>m` is `rm`); the grammar
  // keeps them as separators. Reading the joined text too, and keeping both readings, is safe.
  const joined = source.replace(/\\\r?\n/g, '');
  if (joined !== source) {
    state.facts = createFacts();
    parseBounded(state, ROOT_SCOPE, joined, source);
    overflow ||= state.facts.overflow;
  }
  if (overflow)
    notUnderstood(state, 'more variables, values or links are made than the analysis follows', source);
  reportMutualRecursion(state, source);
  return {
    source,
    commands: state.commands,
    findings: state.findings,
    writes: state.writes,
    understood: !state.findings.some((finding) => finding.kind === 'unknown'),
  };
}
