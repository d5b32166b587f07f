import { normalizePath } from '../paths/paths.js';
import type { ShellWord } from '../words/shell-word.js';

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
