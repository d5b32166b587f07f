import { isPlaceholder } from '../placeholder.js';
import type { RuleMatch, SecretRule } from '../types.js';
import { manifestCarry } from './manifest-carry.js';
import { registerMemo } from './memos.js';
import { MANIFEST_KEYS, openManifestStart } from './manifest-open.js';
import { MAX_COLUMN, inMapping, lineAt, members, objectStart, stringEnd } from './manifest-syntax.js';

// Every value of a Kubernetes Secret's `data` (base64) and `stringData` is secret by definition,
// whatever its key is called (`DATABASE_URL`, `config.json`). The rule hangs on the object's
// `kind: Secret` (YAML) or `"kind": "Secret"` (JSON) and redacts the values of its `data` and
// `stringData` members, before or after it (`kubectl get -o yaml` prints `data` first).

/**
 * How far back from its `kind` the object is looked for (a Secret holds at most 1 MiB); forward it
 * is read to its end (an anchor inside what was read is not read again).
 */
const MAX_SCAN = 1 << 20;
const YAML_ANCHOR = 'kind: Secret';
const MEMBERS: ReadonlySet<string> = new Set(['data', 'stringData']);

/**
 * The end of the last object read in a text, per format: a later anchor before it lies in that
 * object (a second `kind` key, or an attacker's thousands), and is not read again, so every text
 * is read about once per format. (A JSON manifest inside a YAML one, as the
 * `last-applied-configuration` annotation holds it, is read on its own.)
 */
const last: { yaml?: Reach; json?: Reach } = {};
registerMemo(() => {
  last.yaml = undefined;
  last.json = undefined;
});
interface Reach {
  readonly text: string;
  readonly until: number;
  /** The anchor whose object this read (a stream's carry starts from it). */
  readonly object: number;
  /** The last anchor met: a scan meets them in increasing order, so a smaller one is a new scan. */
  anchor: number;
  /** JSON: the last anchor read (not skipped) and the `{` of its object (-1: none), a waypoint for the next walk back. */
  readonly at?: number;
  readonly open?: number;
}

/** Where `needle` is between `from` and `end` (a line), or -1: never a search to the end of the text. */
function inLine(text: string, needle: string, from: number, end: number): number {
  if (from >= end) return -1;
  const at = text.slice(from, end).indexOf(needle);
  return at === -1 ? -1 : from + at;
}

/** A value worth a marker: not empty, not a template reference such as `${DB_PASSWORD}`. */
function valueSpan(text: string, start: number, end: number, out: RuleMatch[]): void {
  if (end > start && !isPlaceholder(text.slice(start, end))) out.push({ start, end, kind: 'secret' });
}

// ---- YAML -------------------------------------------------------------------------------------

/** The value spans of the entries of the `data:`/`stringData:` block after `line` (keys at `column`). */
function blockValues(text: string, after: number, column: number, limit: number, out: RuleMatch[]): void {
  let entryColumn = -1;
  let cursor = after;
  while (cursor < limit) {
    const line = lineAt(text, cursor);
    cursor = line.end + 1;
    if (line.empty) continue;
    if (line.key <= column) return;
    if (entryColumn === -1) entryColumn = line.key;
    if (line.key !== entryColumn || line.item) continue;
    const keyStart = line.start + line.key;
    const quote = text.charCodeAt(keyStart);
    const keyEnd =
      quote === 34 || quote === 39
        ? inLine(text, String.fromCharCode(quote), keyStart + 1, line.end)
        : keyStart;
    if (keyEnd === -1 || keyEnd > line.end) continue;
    let colon = inLine(text, ':', keyEnd, line.end);
    while (
      colon !== -1 &&
      colon < line.end &&
      !/[ \t\r]/.test(text.charAt(colon + 1)) &&
      colon + 1 < line.end
    )
      colon = inLine(text, ':', colon + 1, line.end);
    if (colon === -1 || colon >= line.end) continue;
    let start = colon + 1;
    while (text.charCodeAt(start) === 32 || text.charCodeAt(start) === 9) start++;
    let end = text.charCodeAt(line.end - 1) === 13 ? line.end - 1 : line.end;
    const first = text.charCodeAt(start);
    if (first === 124 || first === 62) {
      // A block scalar (`key: |`): the more-indented lines after it, blank lines inside kept.
      let valueStart = -1;
      let valueEnd = -1;
      while (cursor < limit) {
        const next = lineAt(text, cursor);
        const blank = next.empty && text.charCodeAt(next.start + next.key) !== 35;
        if (!blank && next.key - (next.item ? 2 : 0) <= entryColumn) break;
        if (!blank) {
          if (valueStart === -1) valueStart = next.start + Math.min(next.key, entryColumn + 1);
          valueEnd = text.charCodeAt(next.end - 1) === 13 ? next.end - 1 : next.end;
          while (text.charCodeAt(valueStart) === 32) valueStart++;
        }
        cursor = next.end + 1;
      }
      if (valueStart !== -1) valueSpan(text, valueStart, valueEnd, out);
      continue;
    }
    if (first === 34 || first === 39) {
      const close = inLine(text, String.fromCharCode(first), start + 1, line.end);
      if (close !== -1 && close < line.end) valueSpan(text, start + 1, close, out);
      // Still open where the text ends (a stream's buffer, a cut-off output): a value all the same.
      else if (line.end >= text.length) valueSpan(text, start + 1, text.length, out);
      continue;
    }
    const comment = inLine(text, ' #', start, end);
    if (comment !== -1 && comment < end) end = comment;
    while (end > start && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
    valueSpan(text, start, end, out);
  }
}

function yamlSecret(text: string, anchor: number): RuleMatch[] | undefined {
  let rest = anchor + YAML_ANCHOR.length;
  while (text.charCodeAt(rest) === 32) rest++;
  const after = text.charCodeAt(rest);
  if (!(rest >= text.length || after === 10 || after === 13 || after === 35)) return undefined; // SecretProviderClass
  const own = lineAt(text, text.lastIndexOf('\n', anchor - 1) + 1);
  if (own.start + own.key !== anchor || own.key > MAX_COLUMN) return undefined;
  const column = own.key;
  if (column === 0 && !own.item) return topLevelSecret(text, anchor, own.start, own.end);
  // Back to where the object begins: its first key, or the `- ` that opens it as a list item.
  let from = own.start;
  if (!own.item) {
    while (from > 0 && anchor - from < MAX_SCAN) {
      // (At `from` 1 a search from -1 would find the line break at 0 again: no progress, no end.)
      const previous = lineAt(text, from >= 2 ? text.lastIndexOf('\n', from - 2) + 1 : 0);
      if (previous.start >= from) break;
      if (!inMapping(previous, column, text) && !(previous.item && previous.key === column)) break;
      from = previous.start;
      if (previous.item && previous.key === column) break;
    }
  }
  // On to where it ends.
  let until = own.end + 1;
  while (until < text.length) {
    const next = lineAt(text, until);
    if (!inMapping(next, column, text)) break;
    until = next.end + 1;
  }
  until = Math.min(until, text.length);
  last.yaml = { text, until, anchor, object: anchor };
  const out: RuleMatch[] = [];
  for (let cursor = from; cursor < until; ) {
    const line = lineAt(text, cursor);
    cursor = line.end + 1;
    if (line.empty || line.key !== column) continue;
    const keyStart = line.start + line.key;
    const colon = inLine(text, ':', keyStart, line.end);
    if (colon === -1 || colon >= line.end || !MEMBERS.has(text.slice(keyStart, colon))) continue;
    if (text.slice(colon + 1, line.end).trim() !== '') continue; // `data: {}`
    blockValues(text, cursor, column, until, out);
  }
  return out;
}

/** Where the line holding `at` starts. */
function lineStartOf(text: string, at: number): number {
  return text.lastIndexOf('\n', at - 1) + 1;
}

/**
 * A document separator or a `data:`/`stringData:` key at column 0, after a line break: one native
 * search from where the walk back may stop to the end of the Secret finds both.
 */
const DOCUMENT_LINES = /\n(?:---|data:|stringData:)/g;

/**
 * {@link yamlSecret} for a Secret at column 0, the usual `kubectl get -o yaml` output: there every
 * line belongs to the mapping but a `---` document separator, so the object runs from the line
 * after the previous separator (at most {@link MAX_SCAN} back) to the next one, and only its
 * `data:`/`stringData:` lines are looked at. One forward search reads the text once, from where
 * the object may begin to where it ends (not to the end of the text, nor back through it).
 */
function topLevelSecret(text: string, anchor: number, ownStart: number, ownEnd: number): RuleMatch[] {
  const bound = anchor - MAX_SCAN;
  // The line the walk back stops at: the one holding `bound`, or after the last separator.
  let from = bound >= 0 ? Math.min(ownStart, lineStartOf(text, bound)) : 0;
  if (from === 0 && ownStart > 0 && text.startsWith('---')) from = text.indexOf('\n') + 1;
  let until = text.length;
  const keyLines: number[] = [];
  DOCUMENT_LINES.lastIndex = Math.max(0, from - 1);
  for (let hit = DOCUMENT_LINES.exec(text); hit !== null; hit = DOCUMENT_LINES.exec(text)) {
    const line = hit.index + 1;
    if (text.charCodeAt(line) !== 45) keyLines.push(line);
    else if (line < ownStart) {
      // A separator before the Secret's own line: the object starts after it.
      from = Math.max(from, text.indexOf('\n', line) + 1);
      keyLines.length = 0;
    } else if (hit.index >= ownEnd) {
      until = line;
      break;
    }
  }
  last.yaml = { text, until, anchor, object: anchor };
  const lines = keyLines.filter((line) => line > from && line < until);
  if (text.startsWith('data:', from) || text.startsWith('stringData:', from)) lines.unshift(from);
  const out: RuleMatch[] = [];
  for (const start of lines) {
    const line = lineAt(text, start);
    const colon = inLine(text, ':', start, line.end);
    if (text.slice(colon + 1, line.end).trim() !== '') continue; // `data: {}`
    blockValues(text, line.end + 1, 0, until, out);
  }
  return out;
}

// ---- JSON -------------------------------------------------------------------------------------

function jsonSecret(text: string, anchor: number): RuleMatch[] | undefined {
  const known = last.json;
  const waypoint =
    known?.open !== undefined && anchor > known.anchor && known.text === text ? known : undefined;
  const open = objectStart(
    text,
    anchor,
    MAX_SCAN,
    waypoint && { at: waypoint.anchor, open: waypoint.open ?? -1 },
  );
  const progress = { reach: anchor + 1 };
  const out: RuleMatch[] = [];
  if (open !== -1) {
    const limit = text.length;
    for (const [key, value] of members(text, open, limit, progress)) {
      if (!MEMBERS.has(key) || text.charCodeAt(value) !== 123) continue;
      for (const [, item] of members(text, value, limit, progress)) {
        if (text.charCodeAt(item) !== 34) continue;
        const close = stringEnd(text, item, limit);
        if (close !== -1) valueSpan(text, item + 1, close, out);
        // Still open where the text ends (a stream's buffer, a cut-off output): a value all the same.
        else if (text.indexOf('\n', item) === -1) valueSpan(text, item + 1, text.length, out);
      }
    }
  }
  last.json = { text, until: progress.reach, anchor, object: anchor, at: anchor, open };
  return out;
}

function matchSecret(text: string, anchor: number): RuleMatch[] | undefined {
  const json = text.charCodeAt(anchor) === 34;
  // A `data` or `stringData` key: an anchor for the stream's open-object check only.
  if (text.charCodeAt(json ? anchor + 1 : anchor) !== 107) return undefined;
  const previous = json ? last.json : last.yaml;
  if (
    previous !== undefined &&
    anchor > previous.anchor &&
    anchor < previous.until &&
    previous.text === text
  ) {
    previous.anchor = anchor;
    return undefined;
  }
  const spans = json ? jsonSecret(text, anchor) : yamlSecret(text, anchor);
  return spans === undefined || spans.length === 0 ? undefined : spans;
}

/** The anchor of the object last read in `text` when `at` lies in what that read covered, else -1. */
function objectRead(reach: Reach | undefined, text: string, at: number): number {
  return reach !== undefined && reach.text === text && reach.object < at && at < reach.until
    ? reach.object
    : -1;
}

/** Every `data` and `stringData` value of a Kubernetes Secret manifest (YAML or JSON). */
export const kubernetesSecret: SecretRule = {
  id: 'kubernetes_secret',
  description:
    'Every data (base64) and stringData value of a Kubernetes Secret manifest (kind: Secret), YAML or JSON, whatever the key is called',
  // The `kind` keys, and the `data` keys an open object is held by (see `manifest-open.ts`): the
  // shared pass finds them, so a stream's check for an open object searches no text.
  anchors: [
    YAML_ANCHOR,
    '"kind": "Secret"',
    '"kind":"Secret"',
    ...MANIFEST_KEYS.filter((key) => !key.includes('Secret')),
  ],
  match: matchSecret,
  openFrom: openManifestStart,
  // The objects the scan just read tell the carry where the Secret a cut lies in begins.
  carry: (text, at, maxBack, anchors) =>
    manifestCarry(
      text,
      at,
      maxBack,
      { yaml: objectRead(last.yaml, text, at), json: objectRead(last.json, text, at) },
      anchors,
    ),
  maxLength: 2 * MAX_SCAN,
  positives: (fake) => {
    const url = Buffer.from(
      `postgres://app:${fake.chars('abcdefghijklmnopqrstuvwxyz0123456789', 16)}@db/app`,
    ).toString('base64');
    const word = fake.chars('abcdefghijklmnopqrstuvwxyz0123456789', 14);
    return [
      { text: `apiVersion: v1\nkind: Secret\ndata:\n  DATABASE_URL: ${url}\n`, secret: url, kind: 'secret' },
      { text: `apiVersion: v1\ndata:\n  settings: ${url}\nkind: Secret\n`, secret: url, kind: 'secret' },
      { text: `{"apiVersion":"v1","data":{"DSN":"${url}"},"kind":"Secret"}`, secret: url, kind: 'secret' },
      { text: `kind: Secret\nstringData:\n  config.ini: ${word}\n`, secret: word, kind: 'secret' },
    ];
  },
  negatives: () => [
    'apiVersion: v1\nkind: ConfigMap\ndata:\n  LOG_LEVEL: debug\n',
    'kind: SecretProviderClass\ndata:\n  objects: list\n',
    '{"kind":"ConfigMap","data":{"mode":"fast"}}',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template reference is the sample
    'kind: Secret\nstringData:\n  DB_URL: ${DATABASE_URL}\n',
  ],
};
