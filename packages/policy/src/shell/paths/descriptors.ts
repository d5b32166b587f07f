import type { Node } from 'web-tree-sitter';
import type { LineFacts } from '../facts/line-facts.js';
import { childrenOf } from '../parse/shell-parser.js';
import { resolveWord } from '../words/resolve-word.js';
import type { ShellWord } from '../words/shell-word.js';
import { valuesOf, withReadings } from '../words/word-readings.js';
import { throughLinks } from './links.js';
import { inDirectory, normalizePath } from './paths.js';

const STANDARD: Readonly<Record<string, number>> = { '/dev/stdin': 0, '/dev/stdout': 1, '/dev/stderr': 2 };

/**
 * The descriptor a path opens again: `/dev/fd/N`, `/proc/self/fd/N` (also `thread-self`),
 * `/dev/stdin`, `/dev/stdout`, `/dev/stderr`. Opening one for writing opens the file the
 * descriptor is open on, for writing, even when the descriptor was opened only for reading.
 */
export function descriptorOf(target: ShellWord): number | undefined {
  if (target.dynamic) return undefined;
  const path = normalizePath(target.text);
  const standard = Object.hasOwn(STANDARD, path) ? STANDARD[path] : undefined;
  if (standard !== undefined) return standard;
  const numbered = /^\/(?:dev|proc\/(?:self|thread-self))\/fd\/([0-9]{1,4})$/.exec(path)?.[1];
  return numbered === undefined ? undefined : Number(numbered);
}

/**
 * `exec 0</dev/sda`: the grammar reads the `0` as the command's last word; bash as the
 * descriptor of the redirection it touches.
 */
export function adjacentNumber(redirect: Node): number | undefined {
  const before = redirect.previousSibling;
  const last = before?.type === 'command' ? before.namedChild(before.namedChildCount - 1) : undefined;
  return last?.type === 'number' && last.endIndex === redirect.startIndex ? Number(last.text) : undefined;
}

/**
 * The descriptors a statement's redirections open onto files (`3</dev/sda`, `< img`, `4<>x`,
 * `&> log`), each file placed in every directory possible now; `N<&M` copies M, `N<&-` closes N.
 * Undefined when none changes.
 */
export function descriptorsOpened(
  facts: LineFacts,
  redirects: readonly Node[],
): Map<number, readonly ShellWord[]> | undefined {
  let opened: Map<number, readonly ShellWord[]> | undefined;
  for (const redirect of redirects) {
    if (redirect.type !== 'file_redirect') continue;
    const destination = redirect.childForFieldName('destination');
    let operator = '';
    let number: number | undefined;
    for (const child of childrenOf(redirect)) {
      if (child?.type === 'file_descriptor') number = Number(child.text);
      else if (child && !child.isNamed) operator += child.text;
    }
    number ??= adjacentNumber(redirect);
    const descriptors = operator.startsWith('&') ? [1, 2] : [number ?? (operator.startsWith('<') ? 0 : 1)];
    opened ??= new Map(facts.descriptors);
    if (operator.endsWith('&-')) for (const descriptor of descriptors) opened.delete(descriptor);
    if (!destination) continue;
    if (operator.endsWith('&') && !operator.startsWith('&')) {
      // `3<&0`, `1>&3`: a copy of another descriptor; `3<&-`: closed.
      const source = /^[0-9]+$/.test(destination.text) ? opened.get(Number(destination.text)) : undefined;
      for (const descriptor of descriptors)
        if (source) opened.set(descriptor, source);
        else opened.delete(descriptor);
      continue;
    }
    const values = valuesOf(facts, withReadings(facts, resolveWord(destination)));
    const placed = values.flatMap((value) =>
      facts.directories.map((directory) => throughLinks(facts, inDirectory(directory, value))),
    );
    for (const descriptor of descriptors) opened.set(descriptor, placed);
  }
  return opened;
}
