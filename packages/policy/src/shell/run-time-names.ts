import type { ShellWord } from './shell-word.js';
import { normalizePath } from './working-directory.js';

/** find's options before its starting points (`-L`, `-D debug`, `-O3`). */
const FIND_LEADING = /^-([HLP]|O[0-9]*)$/;

/** The starting points of `find` (`.` when none is given): where the files it names are. */
export function findRoots(args: readonly ShellWord[]): ShellWord[] {
  const roots: ShellWord[] = [];
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (!word.dynamic && word.text === '-D') {
      index++;
      continue;
    }
    if (!word.dynamic && FIND_LEADING.test(word.text)) continue;
    if (!word.dynamic && /^[-(!)]/.test(word.text)) break;
    roots.push(word);
  }
  return roots.length > 0 ? roots : [{ text: '.', dynamic: false, glob: false, substitutions: [] }];
}

/**
 * A word holding `marker` (find's `{}`, xargs' replace string), which becomes a file name at
 * run time: dynamic, its known start kept (`/dev/{}` starts with `/dev/`), and for find one
 * reading per starting point (`find /dev -exec tee {}` writes under /dev; `find /` reaches /dev too).
 */
export function markRunTimeName(word: ShellWord, marker: string, roots?: readonly ShellWord[]): ShellWord {
  const at = word.text.indexOf(marker);
  if (word.dynamic || at < 0) return word;
  const prefix = word.text.slice(0, at);
  const readings = roots?.map((root) => {
    const path = root.dynamic ? root.text : normalizePath(root.text);
    const start = `${prefix}${path === '/' ? '/dev' : path}/`;
    const reading: ShellWord = {
      text: `${start}${word.text.slice(at + marker.length)}`,
      dynamic: true,
      glob: false,
      substitutions: [],
      ...(root.dynamic ? {} : { parts: [start] }),
    };
    return [reading];
  });
  return {
    ...word,
    dynamic: true,
    ...(prefix !== '' ? { parts: [prefix] } : {}),
    ...(readings ? { readings } : {}),
  };
}

/** The replace string of `xargs -I R` / `-i` / `--replace[=R]`, if any. */
export function xargsReplacement(args: readonly ShellWord[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (word.dynamic || !word.text.startsWith('-')) return undefined;
    const text = word.text;
    if (text === '--') return undefined;
    if (text === '-I') return args[index + 1]?.text;
    if (/^-I./.test(text)) return text.slice(2);
    if (text === '-i' || text === '--replace') return '{}';
    if (text.startsWith('-i')) return text.slice(2);
    if (text.startsWith('--replace=')) return text.slice('--replace='.length) || '{}';
    if (
      /^-[dEeLnPsa]$/.test(text) ||
      /^--(arg-file|delimiter|max-args|max-procs|max-chars|max-lines)$/.test(text)
    )
      index++;
  }
  return undefined;
}
