import type { LineFacts } from '../facts/line-facts.js';
import { type ShellWord, staticWord } from '../words/shell-word.js';
import { inDirectory, normalizePath } from './paths.js';

/** Most links and device nodes followed in one command line; later ones are not recorded. */
const MAX_LINKS = 64;
/** Most links followed one after another from a written path (as the kernel's 40, but fewer). */
const MAX_HOPS = 8;

/** `NAME TYPE MAJOR MINOR` of mknod: what the new node gives access to, when it matters. */
function nodeTarget(type: string, major: string, minor: string): ShellWord | undefined {
  if (!/^[0-9]+$/.test(major) || !/^[0-9]+$/.test(minor)) return undefined;
  if (type === 'b') return staticWord(`/dev/block/${major}:${minor}`);
  if (type !== 'c' && type !== 'u') return undefined;
  const known: Record<string, string> = {
    '1:1': '/dev/mem',
    '1:2': '/dev/kmem',
    '1:4': '/dev/port',
    '10:130': '/dev/watchdog',
  };
  const path = known[`${major}:${minor}`];
  return path ? staticWord(path) : undefined;
}

const basename = (word: ShellWord): ShellWord => ({
  ...word,
  text: word.text.replace(/\/+$/, '').slice(word.text.replace(/\/+$/, '').lastIndexOf('/') + 1),
});
const dirname = (path: string): string =>
  path.includes('/') ? path.slice(0, path.lastIndexOf('/')) || '/' : '';

function record(facts: LineFacts, at: ShellWord, leadsTo: ShellWord): void {
  if (facts.links.size >= MAX_LINKS) {
    facts.overflow = true;
    return;
  }
  for (const directory of facts.directories) {
    const path = inDirectory(directory, at);
    if (path.dynamic) continue;
    facts.links.set(normalizePath(path.text), inDirectory(directory, leadsTo));
  }
}

/** `ln [-s] [-r] [-t DIR] TARGET... [LINK]`: where each link is made and what it names. */
function recordLn(facts: LineFacts, args: readonly ShellWord[]): void {
  let symbolic = false;
  let relative = false;
  let directory: ShellWord | undefined;
  const operands: ShellWord[] = [];
  let optionsDone = false;
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    const text = word.text;
    if (optionsDone || word.dynamic || !text.startsWith('-') || text === '-') operands.push(word);
    else if (text === '--') optionsDone = true;
    else if (text.startsWith('--')) {
      const [name = '', value] = text.slice(2).split('=', 2);
      const is = (full: string) => name.length >= 3 && full.startsWith(name);
      if (is('symbolic')) symbolic = true;
      else if (is('relative')) relative = true;
      else if (is('target-directory')) directory = value !== undefined ? staticWord(value) : args[++index];
      else if (is('suffix') && value === undefined) index++;
    } else {
      for (let at = 1; at < text.length; at++) {
        const letter = text[at] as string;
        if (letter === 's') symbolic = true;
        else if (letter === 'r') relative = true;
        else if (letter === 't' || letter === 'S') {
          const value = at + 1 < text.length ? staticWord(text.slice(at + 1)) : args[++index];
          if (letter === 't') directory = value;
          break;
        }
      }
    }
  }
  const made: [ShellWord, ShellWord][] = [];
  if (directory) for (const target of operands) made.push([target, inDirectory(directory, basename(target))]);
  else if (operands.length === 1) made.push([operands[0] as ShellWord, basename(operands[0] as ShellWord)]);
  else if (operands.length === 2) made.push([operands[0] as ShellWord, operands[1] as ShellWord]);
  else {
    const into = operands[operands.length - 1] as ShellWord;
    for (const target of operands.slice(0, -1)) made.push([target, inDirectory(into, basename(target))]);
  }
  for (const [target, at] of made) {
    // A relative symbolic link is read from the directory it is in (`ln -r` made it so from here).
    const fromLink = symbolic && !relative && !target.dynamic && !target.text.startsWith('/');
    if (!fromLink) record(facts, at, target);
    else
      for (const directory of facts.directories) {
        const placed = inDirectory(directory, at);
        if (placed.dynamic) continue;
        const base = dirname(normalizePath(placed.text));
        const leadsTo = staticWord(normalizePath(base === '' ? target.text : `${base}/${target.text}`));
        if (facts.links.size < MAX_LINKS) facts.links.set(normalizePath(placed.text), leadsTo);
        else facts.overflow = true;
      }
  }
}

/**
 * Follows `ln` and `mknod`: a link or a device node made in the line is another name for what
 * it leads to, so a write into it is judged as a write into that.
 */
export function recordLinks(facts: LineFacts, name: string, args: readonly ShellWord[]): void {
  if (name === 'ln') {
    recordLn(facts, args);
    return;
  }
  const operands: ShellWord[] = [];
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (!word.dynamic && /^-[a-zA-Z]*m$/.test(word.text)) index++;
    else if (word.dynamic || !word.text.startsWith('-')) operands.push(word);
  }
  const [at, type, major, minor] = operands;
  if (!at || !type || !major || !minor || type.dynamic || major.dynamic || minor.dynamic) return;
  const leadsTo = nodeTarget(type.text, major.text, minor.text);
  if (leadsTo) record(facts, at, leadsTo);
}

/** The path a written word leads to through the links made earlier in the line. */
export function throughLinks(facts: LineFacts, word: ShellWord): ShellWord {
  if (word.dynamic || facts.links.size === 0) return word;
  let path = normalizePath(word.text);
  let changed = false;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    let next: ShellWord | undefined;
    for (const [link, leadsTo] of facts.links) {
      if (path !== link && !path.startsWith(`${link}/`)) continue;
      const rest = path.slice(link.length);
      next = { ...leadsTo, text: `${leadsTo.text}${rest}` };
      break;
    }
    if (!next) break;
    changed = true;
    if (next.dynamic) return next;
    const following = normalizePath(next.text);
    if (following === path) break;
    path = following;
  }
  return changed ? staticWord(path) : word;
}
