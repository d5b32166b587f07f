import { type Node as JsonNode, findNodeAtLocation, parseTree, printParseErrorCode } from 'jsonc-parser';
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';

/** A 1-based line and column in a config file. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** A parsed config document that can say where a field path is written. */
export interface ParsedText {
  readonly data: unknown;
  /** Syntax errors, with positions; `data` is unusable when there are any. */
  readonly syntaxErrors: readonly { readonly message: string; readonly position: Position }[];
  /** Where the value at `path` is (or its nearest written ancestor when it is missing). */
  locate(path: readonly PropertyKey[]): Position | undefined;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = 0; index < text.length; index++) if (text[index] === '\n') starts.push(index + 1);
  return starts;
}

function positionOf(starts: readonly number[], offset: number): Position {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: offset - (starts[low] ?? 0) + 1 };
}

type Segment = string | number;
const segments = (path: readonly PropertyKey[]): Segment[] =>
  path.map((part) => (typeof part === 'number' ? part : String(part)));

/** Parses JSON (comments and trailing commas allowed, as in VS Code and Claude configs). */
export function parseJsonText(text: string): ParsedText {
  const starts = lineStarts(text);
  const errors: { error: number; offset: number; length: number }[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const syntaxErrors = errors.map((error) => ({
    message: `JSON syntax: ${printParseErrorCode(error.error)}`,
    position: positionOf(starts, error.offset),
  }));
  const data = root && syntaxErrors.length === 0 ? nodeValue(root) : undefined;
  return {
    data,
    syntaxErrors,
    locate(path) {
      if (!root) return undefined;
      const parts = segments(path);
      for (let length = parts.length; length >= 0; length--) {
        const node = findNodeAtLocation(root, parts.slice(0, length));
        if (!node) continue;
        // point at the key of a property rather than its value
        const target = node.parent?.type === 'property' ? node.parent : node;
        return positionOf(starts, target.offset);
      }
      return undefined;
    },
  };
}

function nodeValue(node: JsonNode): unknown {
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key && value) out[String(key.value)] = nodeValue(value);
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

/** Parses YAML 1.2 (which also reads JSON). */
export function parseYamlText(text: string): ParsedText {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const syntaxErrors = document.errors.map((error) => ({
    message: `YAML syntax: ${error.message.split('\n')[0]}`,
    position: at(error.pos[0]),
  }));
  return {
    data: syntaxErrors.length === 0 ? document.toJS() : undefined,
    syntaxErrors,
    locate(path) {
      const parts = segments(path);
      for (let length = parts.length; length >= 0; length--) {
        const prefix = parts.slice(0, length);
        if (length > 0) {
          // the key node gives the line where the field is written
          const parent = prefix.length === 1 ? document.contents : document.getIn(prefix.slice(0, -1), true);
          const last = prefix[prefix.length - 1];
          if (isMap(parent)) {
            const pair = parent.items.find(
              (item) => isScalar(item.key) && String(item.key.value) === String(last),
            );
            const range = (isScalar(pair?.key) ? pair?.key.range : undefined) ?? undefined;
            if (range) return at(range[0]);
          }
          if (isSeq(parent) && typeof last === 'number') {
            const item = parent.items[last] as { range?: [number, number, number] } | undefined;
            if (item?.range) return at(item.range[0]);
          }
          continue;
        }
        const range = (document.contents as { range?: [number, number, number] } | null)?.range;
        if (range) return at(range[0]);
      }
      return undefined;
    },
  };
}
