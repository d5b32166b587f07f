import { MAX_COLUMN, inMapping, lineAt, objectOpenAtEnd, objectStart } from './manifest-syntax.js';

// A stream cannot tell a Secret's `data` from a ConfigMap's until it has read the object's `kind`,
// which `kubectl get -o yaml` prints after `data`: while such an object is still open at the end
// of the buffer, the stream holds it (up to 16 KB, as it holds an open token).

/** The most a stream holds for an open manifest object. */
export const MAX_MANIFEST_HOLD = 16_384;

const YAML_KEYS = ['kind: Secret', 'data:', 'stringData:'];
const JSON_KEYS = ['"kind": "Secret"', '"kind":"Secret"', '"data"', '"stringData"'];
/** Every key an open manifest is known by (the Kubernetes rule's anchors hold them all). */
export const MANIFEST_KEYS: readonly string[] = [...YAML_KEYS, ...JSON_KEYS];
const KEYS = MANIFEST_KEYS;

/** Each key holds one of these: the window is searched for two of them, not for seven keys. */
const MARKERS = ['Secret', 'ata'];
const MARKED = MARKERS.map((marker) =>
  KEYS.map((key, index) => ({ index, key, offset: key.indexOf(marker) })).filter((one) => one.offset !== -1),
);

/**
 * The last start of each of {@link KEYS} in `window` (by index; -1 when it is not there). Searched
 * forward: a native forward search skips ahead, a search backward reads every character.
 */
function lastKeys(window: string): number[] {
  const last = KEYS.map(() => -1);
  MARKERS.forEach((marker, group) => {
    const keys = MARKED[group] as { index: number; key: string; offset: number }[];
    for (let at = window.indexOf(marker); at !== -1; at = window.indexOf(marker, at + 1))
      for (const { index, key, offset } of keys)
        if (at >= offset && window.startsWith(key, at - offset)) last[index] = at - offset;
  });
  return last;
}

/** Whether the YAML key at `at` begins its line's mapping entry, and the mapping runs to the end. */
function yamlOpen(text: string, at: number, key: string): number {
  const line = lineAt(text, text.lastIndexOf('\n', at - 1) + 1);
  if (line.start + line.key !== at || line.key > MAX_COLUMN) return -1;
  if (key !== YAML_KEYS[0] && text.slice(at + key.length, line.end).trim() !== '') return -1;
  if (line.key === 0) {
    // At column 0 only a `---` line ends the mapping: a native search for one, not a walk over
    // every line (a stream carrying a top-level Secret asks this at every write).
    const separator = text.indexOf('\n---', line.end);
    return separator !== -1 && text.indexOf('\n', separator + 1) !== -1 ? -1 : line.start;
  }
  let cursor = line.end + 1;
  while (cursor < text.length) {
    const next = lineAt(text, cursor);
    if (next.end >= text.length) break; // a line still being written says nothing yet
    if (!inMapping(next, line.key, text)) return -1;
    cursor = next.end + 1;
  }
  return line.start;
}

/**
 * {@link lastKeys} from `anchors` (ascending starts in `text` of the keys among others, as the
 * shared pass found them): the last start at or after `floor` of each key, relative to `floor`.
 */
function lastKeysAmong(text: string, floor: number, anchors: Int32Array): number[] {
  const last = KEYS.map(() => -1);
  for (let i = anchors.length - 1; i >= 0; i--) {
    const start = anchors[i] as number;
    if (start < floor) break;
    for (let index = 0; index < KEYS.length; index++)
      if ((last[index] as number) === -1 && text.startsWith(KEYS[index] as string, start))
        last[index] = start - floor;
  }
  return last;
}

/**
 * Where the last Secret-like manifest object still open at the end of `text` begins (its
 * `kind: Secret` or `data:` line in YAML, its `{` in JSON), within the last
 * {@link MAX_MANIFEST_HOLD} characters; `text.length` when there is none. `anchors`, when given,
 * are where the keys (among the rule's other anchors) start in `text`, ascending: then the window
 * is not searched at all.
 */
export function openManifestStart(text: string, anchors?: Int32Array): number {
  const floor = Math.max(0, text.length - MAX_MANIFEST_HOLD);
  let from = text.length;
  // Searched in the window only: a search back through a 1 MB chunk per write cost a pass each.
  const last =
    anchors !== undefined
      ? lastKeysAmong(text, floor, anchors)
      : lastKeys(floor > 0 ? text.slice(floor) : text);
  YAML_KEYS.forEach((key, index) => {
    const at = last[index] as number;
    if (at === -1) return;
    const start = yamlOpen(text, at + floor, key);
    if (start !== -1) from = Math.min(from, start);
  });
  for (let index = YAML_KEYS.length; index < KEYS.length; index++) {
    if ((last[index] as number) === -1) continue;
    const at = (last[index] as number) + floor;
    if (!objectOpenAtEnd(text, at)) continue;
    const open = objectStart(text, at, at - floor + 1);
    from = Math.min(from, open === -1 ? at : open);
  }
  return Math.max(from, floor);
}
