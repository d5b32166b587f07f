// YAML configs: parsed with positions, `<<` merge keys expanded, fields located through merges.
import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Pair,
  parseDocument,
  type YAMLMap,
} from 'yaml';
import { type ParsedText, type Position, segments, tooComplex } from './positions.js';
import { MAX_EXPANDED_VALUES, expandedValues } from './yaml-size.js';

type Range = readonly [number, number, number];

/** How deep merges may name maps that merge again (an anchor merges another, and so on). */
const MAX_MERGE_DEPTH = 64;

/** A `<<` key (YAML 1.1 merge key), which `yaml` parses as a symbol when `merge` is on. */
function isMergeKey(key: unknown): boolean {
  return isScalar(key) && typeof key.value === 'symbol' && key.value.description === '<<';
}

function resolved(node: unknown, document: Document): unknown {
  return isAlias(node) ? node.resolve(document) : node;
}

/** The maps a merge value names (`*a`, `[*a, *b]` or a map written there); undefined when one is no map. */
function mergeSources(value: unknown, document: Document): YAMLMap[] | undefined {
  const source = resolved(value, document);
  const items = isSeq(source) ? source.items.map((item) => resolved(item, document)) : [source];
  return items.every((item) => isMap(item)) ? (items as YAMLMap[]) : undefined;
}

/** What a merge value is when it is not a map, for the message. */
function describeNode(value: unknown, document: Document): string {
  const source = resolved(value, document);
  if (isSeq(source)) return 'a list with something other than maps in it';
  if (isScalar(source)) return source.value === null ? 'nothing' : `the value ${String(source.value)}`;
  return 'something other than a map';
}

/** The `<<` keys whose value is not a map (or a list of maps), with their field paths. */
function badMerges(document: Document): { pair: Pair; path: Segment[] }[] {
  const found: { pair: Pair; path: Segment[] }[] = [];
  const walk = (node: unknown, path: Segment[]): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (isMergeKey(pair.key)) {
          if (!mergeSources(pair.value, document)) found.push({ pair, path: [...path, '<<'] });
        } else walk(pair.value, [...path, isScalar(pair.key) ? String(pair.key.value) : '?']);
      }
    } else if (isSeq(node)) for (const [index, item] of node.items.entries()) walk(item, [...path, index]);
  };
  walk(document.contents, []);
  return found;
}

type Segment = string | number;

/**
 * The pair of `map` for `key`: its own pair first (an own key wins over a merged one), then the
 * maps it merges, in order (the first that has the key wins, as `yaml` merges them).
 */
function findPair(map: YAMLMap, key: Segment, document: Document, depth = 0): Pair | undefined {
  const own = map.items.find(
    (pair) => !isMergeKey(pair.key) && isScalar(pair.key) && String(pair.key.value) === String(key),
  );
  if (own || depth >= MAX_MERGE_DEPTH) return own;
  for (const pair of map.items) {
    if (!isMergeKey(pair.key)) continue;
    for (const source of mergeSources(pair.value, document) ?? []) {
      const inherited = findPair(source, key, document, depth + 1);
      if (inherited) return inherited;
    }
  }
  return undefined;
}

/** Where the field at `parts` is written (its key, or its item in a list), following aliases and merges. */
function rangeOf(document: Document, parts: readonly Segment[]): Range | undefined {
  let node: unknown = document.contents;
  let range = (node as { range?: Range } | null)?.range;
  for (const part of parts) {
    node = resolved(node, document);
    if (isMap(node)) {
      const pair = findPair(node, part, document);
      if (!pair) return undefined;
      range = (pair.key as { range?: Range }).range;
      node = pair.value;
    } else if (isSeq(node) && typeof part === 'number') {
      node = node.items[part];
      if (node === undefined) return undefined;
      range = (node as { range?: Range }).range;
    } else return undefined;
  }
  return range;
}

/**
 * Parses YAML 1.2 (which also reads JSON) with YAML 1.1's `<<` merge keys, which configs use
 * to share settings (`<<: *defaults`). A merge of something that is no map is a syntax error at
 * its key.
 */
export function parseYamlText(text: string): ParsedText {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, merge: true });
  const at = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const syntaxErrors: ParsedText['syntaxErrors'][number][] = document.errors.map((error) => ({
    // the parser reports running out of stack as a syntax error of its own
    message: /Maximum call stack size exceeded/.test(error.message)
      ? `YAML: ${tooComplex(new RangeError(error.message))}`
      : `YAML syntax: ${error.message.split('\n')[0]}`,
    position: at(error.pos[0]),
  }));
  let data: unknown;
  if (syntaxErrors.length === 0) {
    try {
      for (const { pair, path } of badMerges(document))
        syntaxErrors.push({
          message: `YAML: "<<" merges a map into this one, but it is given ${describeNode(pair.value, document)}: write "<<: *anchor" with the anchor of a map (or a list of them, "<<: [*a, *b]")`,
          position: at((pair.key as { range: Range }).range[0]),
          path,
        });
      if (syntaxErrors.length === 0 && expandedValues(document) > MAX_EXPANDED_VALUES)
        syntaxErrors.push({
          message: `YAML: its aliases expand to more than ${MAX_EXPANDED_VALUES.toLocaleString('en-US')} values (anchors used inside anchors multiply); write the values out instead of expanding aliases`,
          position: { line: 1, column: 1 },
        });
      // the size is bounded above: yaml's own count of anchor uses (100) refused plain configs
      if (syntaxErrors.length === 0) data = document.toJS({ maxAliasCount: -1 });
    } catch (error) {
      // aliases that expand too much (`yaml` refuses them) or nesting deeper than the stack
      syntaxErrors.push({ message: `YAML: ${tooComplex(error)}`, position: { line: 1, column: 1 } });
    }
  }
  return {
    data,
    syntaxErrors,
    locate(path) {
      const parts = segments(path);
      for (let length = parts.length; length >= 0; length--) {
        let range: Range | undefined;
        try {
          range = rangeOf(document, parts.slice(0, length));
        } catch {
          range = undefined;
        }
        if (range) return at(range[0]);
      }
      return undefined;
    },
  };
}
