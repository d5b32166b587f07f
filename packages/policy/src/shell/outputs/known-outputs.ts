import type { Node } from 'web-tree-sitter';
import { childrenOf, namedChildrenOf } from '../parse/shell-parser.js';
import { resolveWord } from '../words/resolve-word.js';
import { type ShellWord, staticWord } from '../words/shell-word.js';

/** How the outputs of the commands inside are found (echo and printf of known words). */
export interface OutputReaders {
  /** What a plain command prints, when it is `echo` or `printf` of known words. */
  readonly command: (command: Node) => ShellWord[] | undefined;
  /** The values a word has with what the line set before (a herestring's text). */
  readonly values: (word: Node) => ShellWord[];
}

/** The text a heredoc feeds when it is static (a quoted delimiter, or a body with no expansion). */
export function heredocText(redirect: Node): ShellWord[] | undefined {
  const start = namedChildrenOf(redirect).find((child) => child.type === 'heredoc_start');
  const body = namedChildrenOf(redirect).find((child) => child.type === 'heredoc_body');
  if (!start || !body) return undefined;
  const quoted = /['"\\]/.test(start.text);
  const plain = namedChildrenOf(body).every((child) => child.type === 'heredoc_content');
  if (!quoted && (!plain || /[$`\\]/.test(body.text))) return undefined;
  // `<<-` strips the leading tabs of every line.
  const stripped = childrenOf(redirect).some((child) => child?.text === '<<-')
    ? body.text.replace(/^\t+/gm, '')
    : body.text;
  return [staticWord(stripped)];
}

/** What `<(cmd)` gives when cmd prints only known words ({@link knownOutputs}). */
export function processSubstitutionOutputs(node: Node, readers: OutputReaders): ShellWord[] | undefined {
  if (node.type !== 'process_substitution' || !node.text.startsWith('<(')) return undefined;
  const inside = namedChildrenOf(node).filter((child) => child.type !== 'comment');
  return inside.length === 1 && inside[0] ? knownOutputs(inside[0], readers) : undefined;
}

/** `cat` or `cat -`: a command that prints its standard input as it is (its herestrings aside). */
function isPlainCat(node: Node | null | undefined): boolean {
  if (node?.type !== 'command') return false;
  const [name, ...args] = namedChildrenOf(node).filter((child) => child.type !== 'herestring_redirect');
  if (name?.type !== 'command_name') return false;
  const word = resolveWord(name.namedChild(0) ?? name);
  return !word.dynamic && /^(\/usr)?(\/bin\/)?cat$/.test(word.text) && args.every((arg) => arg.text === '-');
}

/** What a redirection feeding standard input gives: a herestring, a static heredoc, `< <(cmd)`. */
function inputOf(redirect: Node, readers: OutputReaders): ShellWord[] | undefined {
  if (redirect.type === 'herestring_redirect') {
    const body = redirect.namedChild(0);
    return body
      ? readers.values(body).map((value) => (value.dynamic ? value : staticWord(`${value.text}\n`)))
      : undefined;
  }
  if (redirect.type === 'heredoc_redirect') return heredocText(redirect);
  if (redirect.type !== 'file_redirect') return undefined;
  const operator = childrenOf(redirect)
    .filter((child) => child && !child.isNamed)
    .map((child) => child?.text)
    .join('');
  const destination = redirect.childForFieldName('destination');
  if (operator !== '<' || !destination || redirect.childrenForFieldName('destination').length !== 1)
    return undefined;
  return processSubstitutionOutputs(destination, readers);
}

/**
 * What a command prints when its output is known in the line: `echo`/`printf` of known words,
 * and `cat` of a known standard input (`cat <<< /dev/sda`, `cat <<'EOF'`, `cat < <(echo x)`,
 * `echo x | cat`). Undefined for anything else (an output redirection, another program).
 */
export function knownOutputs(node: Node, readers: OutputReaders): ShellWord[] | undefined {
  if (node.type === 'command') {
    // `cat <<< /dev/sda`: the grammar hangs a command's herestring on the command.
    const herestrings = namedChildrenOf(node).filter((child) => child.type === 'herestring_redirect');
    if (herestrings.length === 0) return readers.command(node);
    return isPlainCat(node) ? inputOf(herestrings[herestrings.length - 1] as Node, readers) : undefined;
  }
  if (node.type === 'pipeline') {
    // Each later stage must be `cat`, which passes its input on, or `cat <<< x`, which replaces it.
    const [first, ...rest] = namedChildrenOf(node);
    let outputs = first && rest.length > 0 ? knownOutputs(first, readers) : undefined;
    for (const stage of rest) {
      if (!isPlainCat(stage)) return undefined;
      const passes = namedChildrenOf(stage).every((child) => !child.type.endsWith('_redirect'));
      if (!passes) outputs = knownOutputs(stage, readers);
    }
    return outputs;
  }
  if (node.type !== 'redirected_statement') return undefined;
  const body = node.childForFieldName('body');
  const redirects = namedChildrenOf(node).filter((child) => child.id !== body?.id);
  if (!isPlainCat(body) || redirects.length !== 1) return undefined;
  return inputOf(redirects[0] as Node, readers);
}

/**
 * What a pipeline stage prints to the next one (`echo x | cat | sh`, `cat <<'EOF' | sh`): its
 * known outputs, or its known input when it is a plain `cat`; undefined otherwise.
 */
export function stageOutputs(
  stage: Node,
  input: ShellWord[] | undefined,
  readers: OutputReaders,
): ShellWord[] | undefined {
  if (isPlainCat(stage) && namedChildrenOf(stage).every((child) => !child.type.endsWith('_redirect')))
    return input;
  return knownOutputs(stage, readers);
}
