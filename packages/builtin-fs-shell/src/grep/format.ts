import { needsQuoting, showPath } from '../tools/shown-path.js';
import type { FileHits } from './results.js';
import type { GrepMode } from './search-request.js';

/** How much of a result the model sees. */
export interface Shown {
  readonly text: string;
  readonly truncated: boolean;
  readonly files: number;
  readonly matches: number;
  /** Paths shown quoted because they hold line breaks or invisible characters. */
  readonly quoted: number;
}

const MAX_LINE = 500;

function clip(text: string): string {
  const line = text.endsWith('\r') ? text.slice(0, -1) : text;
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)} [...]` : line;
}

/**
 * Formats search results; the same for both engines. `files_with_matches` lists paths,
 * `count` lists `path:count`, `content` groups lines under each path (`12:` a match, `13-`
 * context, `--` between separate groups). `limit` caps files (or matching lines in content mode).
 * A path holding a line break or an invisible character is shown quoted with escapes, so it
 * cannot pass for other lines of the result.
 */
export function formatHits(files: readonly FileHits[], mode: GrepMode, limit: number, prefix: string): Shown {
  const totalMatches = files.reduce((sum, file) => sum + file.count, 0);
  let quoted = 0;
  const name = (path: string): string => {
    const full = prefix === '' ? path : `${prefix}/${path}`;
    if (!needsQuoting(full)) return full;
    quoted++;
    return showPath(full);
  };
  if (mode !== 'content') {
    const shown = files.slice(0, limit);
    const rows = shown.map((file) =>
      mode === 'count' ? `${name(file.path)}:${file.count}` : name(file.path),
    );
    return {
      text: rows.join('\n'),
      truncated: files.length > limit,
      files: files.length,
      matches: totalMatches,
      quoted,
    };
  }
  const blocks: string[] = [];
  let matchesShown = 0;
  let truncated = false;
  for (const file of files) {
    if (matchesShown >= limit) {
      truncated = true;
      break;
    }
    const rows: string[] = [name(file.path)];
    let previous = -1;
    for (const hit of file.lines) {
      if (hit.match && matchesShown >= limit) {
        truncated = true;
        break;
      }
      if (previous !== -1 && hit.line > previous + 1) rows.push('--');
      rows.push(`${hit.line}${hit.match ? ':' : '-'}${clip(hit.text)}`);
      previous = hit.line;
      if (hit.match) matchesShown++;
    }
    // Drop trailing context of a block cut by the limit.
    while (truncated && rows.length > 1 && /^\d+-/.test(rows.at(-1) ?? '')) rows.pop();
    blocks.push(rows.join('\n'));
  }
  return { text: blocks.join('\n\n'), truncated, files: files.length, matches: totalMatches, quoted };
}
