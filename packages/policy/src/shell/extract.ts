import type { Node, Parser } from 'web-tree-sitter';
import type { CommandLineAnalysis } from './analysis.js';
import { type AnalysisState, MAX_NESTING, ROOT_SCOPE, type Scope, notUnderstood, report } from './context.js';
import { childrenOf, namedChildrenOf, withShellTree } from './parser.js';
import { DANGEROUS_VARIABLE } from './programs.js';
import { runCommand } from './run-command.js';
import { type ShellWord, resolveWord } from './words.js';

/** Node types that only group statements; their children are walked. */
const CONTAINERS = new Set([
  'program',
  'list',
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
const BLOCK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper\/|md[0-9]|loop)/;

function analyzeSubstitutions(state: AnalysisState, scope: Scope, word: ShellWord): void {
  for (const substitution of word.substitutions) {
    const before = state.commands.length;
    // `>(cmd)` reads the outer command's output: treat it as fed by a pipe.
    const feedsInput = substitution.type === 'process_substitution' && substitution.text.startsWith('>(');
    walkChildren(
      state,
      { ...scope, stdinFrom: feedsInput ? [...scope.stdinFrom, '>(...)'] : [] },
      substitution,
    );
    state.substitutionNames.set(
      substitution.id,
      state.commands.slice(before).map((command) => command.name),
    );
  }
}

function resolve(state: AnalysisState, scope: Scope, node: Node): ShellWord {
  const word = resolveWord(node);
  analyzeSubstitutions(state, scope, word);
  return word;
}

function checkAssignment(state: AnalysisState, scope: Scope, node: Node, text: string): void {
  const name = node.childForFieldName('name')?.text ?? '';
  const value = node.childForFieldName('value');
  if (value) resolve(state, scope, value);
  if (DANGEROUS_VARIABLE.test(name))
    notUnderstood(state, `setting ${name} changes what later commands run`, text);
}

function handleCommand(state: AnalysisState, scope: Scope, node: Node): void {
  const words: ShellWord[] = [];
  for (let index = 0; index < node.childCount; index++) {
    const child = node.child(index);
    if (!child) continue;
    const field = node.fieldNameForChild(index);
    if (child.type === 'variable_assignment') checkAssignment(state, scope, child, node.text);
    else if (field === 'name') {
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
  if (herestring) shellFromHerestring(state, commandScope, words, herestring);
  else runCommand(state, commandScope, words, node.text, analyzeNested);
}

/** `bash <<< 'cmd'` runs the string: parse it when static; otherwise judge the command normally. */
function shellFromHerestring(state: AnalysisState, scope: Scope, words: ShellWord[], redirect: Node): void {
  const head = words[0];
  const body = redirect.namedChild(0);
  const isShell = head && !head.dynamic && /(^|\/)(ba|da|z|k|mk)?sh$/.test(head.text) && words.length === 1;
  if (isShell && body) {
    const text = resolveWord(body);
    if (!text.dynamic) {
      analyzeNested(
        state,
        { ...scope, stdinFrom: [], via: [...scope.via, `${head.text} <<<`] },
        text.text,
        redirect.text,
      );
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
  const destination = node.childForFieldName('destination');
  let operator = '';
  for (const child of childrenOf(node)) if (child && !child.isNamed) operator += child.text;
  if (!destination) return;
  const target = resolve(state, scope, destination);
  if (/\/dev\/(tcp|udp)\//.test(target.text)) {
    report(state, 'deny', 'reverse-shell', 'redirects to a /dev/tcp or /dev/udp connection', node.text);
    return;
  }
  const writes = operator.includes('>');
  if (!writes) return;
  if (!target.dynamic && BLOCK_DEVICE.test(target.text)) {
    report(state, 'deny', 'disk-destruction', `writes to the block device ${target.text}`, node.text);
    return;
  }
  if (operator.includes('&') && !target.dynamic && /^[0-9-]+$/.test(target.text)) return;
  if (target.dynamic) state.writes.push('<computed>');
  else if (!QUIET_OUTPUTS.test(target.text)) state.writes.push(target.text);
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
      if (operator === '<') bodyScope = { ...bodyScope, stdinFrom: [...bodyScope.stdinFrom, '<file'] };
    }
  }
  const before = state.commands.length;
  if (body) walk(state, bodyScope, body);
  const bodyNames = state.commands.slice(before).map((command) => command.name);
  for (const redirect of redirects) {
    if (redirect.type === 'heredoc_redirect') {
      // A heredoc may carry the rest of a pipeline (`cat <<EOF | sh`); its body is text, not commands.
      for (const child of namedChildrenOf(redirect)) {
        if (!child || child.type.startsWith('heredoc_')) continue;
        walk(state, { ...scope, stdinFrom: [...scope.stdinFrom, ...bodyNames] }, child);
      }
    } else handleRedirect(state, scope, redirect);
  }
}

function handlePipeline(state: AnalysisState, scope: Scope, node: Node): void {
  const upstream: string[] = [...scope.stdinFrom];
  for (const child of namedChildrenOf(node)) {
    if (!child) continue;
    const before = state.commands.length;
    walk(state, { ...scope, stdinFrom: [...upstream] }, child);
    for (const command of state.commands.slice(before)) upstream.push(command.name);
  }
}

function handleFunction(state: AnalysisState, scope: Scope, node: Node): void {
  const name = node.childForFieldName('name')?.text ?? '';
  state.functions.add(name);
  const body = node.childForFieldName('body');
  if (body) walk(state, { ...scope, inFunction: name }, body);
}

function walkChildren(state: AnalysisState, scope: Scope, node: Node): void {
  for (const child of namedChildrenOf(node)) if (child) walk(state, scope, child);
}

function walk(state: AnalysisState, scope: Scope, node: Node): void {
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
    case 'redirected_statement':
      handleRedirectedStatement(state, scope, node);
      return;
    case 'function_definition':
      handleFunction(state, scope, node);
      return;
    case 'variable_assignment':
      checkAssignment(state, scope, node, node.text);
      return;
    case 'variable_assignments':
      walkChildren(state, scope, node);
      return;
    case 'declaration_command':
    case 'unset_command':
      for (const child of namedChildrenOf(node)) {
        if (!child) continue;
        if (child.type === 'variable_assignment') checkAssignment(state, scope, child, node.text);
        else if (
          child.type === 'variable_name' &&
          DANGEROUS_VARIABLE.test(child.text) &&
          node.type === 'declaration_command'
        )
          notUnderstood(state, `changing ${child.text} changes what later commands run`, node.text);
        else resolve(state, scope, child);
      }
      return;
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

function analyzeNested(state: AnalysisState, scope: Scope, script: string, text: string): void {
  if (scope.depth > MAX_NESTING) {
    notUnderstood(state, 'commands nested too deeply to follow', text);
    return;
  }
  withShellTree(state.parser, script, (root) => walk(state, scope, root));
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
    substitutionNames: new Map(),
  };
  withShellTree(parser, source, (root) => walk(state, ROOT_SCOPE, root));
  // Bash removes backslash-newline before splitting words (`r\<newline>m` is `rm`); the grammar
  // keeps them as separators. Reading the joined text too, and keeping both readings, is safe.
  const joined = source.replace(/\\\r?\n/g, '');
  if (joined !== source) withShellTree(parser, joined, (root) => walk(state, ROOT_SCOPE, root));
  return {
    source,
    commands: state.commands,
    findings: state.findings,
    writes: state.writes,
    understood: !state.findings.some((finding) => finding.kind === 'unknown'),
  };
}
