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

/** Why a document could not be turned into a value: nesting deeper than the stack, or too many aliases. */
function tooComplex(error: unknown): string {
  if (error instanceof RangeError)
    return 'the document is nested too deeply to read; a config needs only a few levels';
  return `${(error as Error).message}; write the values out instead of expanding aliases`;
}

/** Parses JSON (comments and trailing commas allowed, as in VS Code and Claude configs). */
export function parseJsonText(text: string): ParsedText {
  const starts = lineStarts(text);
  const errors: { error: number; offset: number; length: number }[] = [];
  let root: JsonNode | undefined;
  let data: unknown;
  let syntaxErrors: ParsedText['syntaxErrors'];
  try {
    root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
    syntaxErrors = errors.map((error) => ({
      message: `JSON syntax: ${printParseErrorCode(error.error)}`,
      position: positionOf(starts, error.offset),
    }));
    const duplicates: JsonNode[] = [];
    data = root && syntaxErrors.length === 0 ? nodeValue(root, duplicates) : undefined;
    // JSON.parse keeps the last of two equal keys and drops the first without a word (a second
    // "timeoutMs", a server entry pasted twice); YAML refuses them, and so does this
    syntaxErrors = [
      ...syntaxErrors,
      ...duplicates.map((key) => ({
        message: `JSON syntax: the key ${JSON.stringify(key.value)} is given twice in one object (the first would be dropped): keep one`,
        position: positionOf(starts, key.offset),
      })),
    ];
    if (duplicates.length > 0) data = undefined;
  } catch (error) {
    root = undefined;
    syntaxErrors = [{ message: `JSON: ${tooComplex(error)}`, position: { line: 1, column: 1 } }];
  }
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

/** The value of a parsed node; keys given twice in one object are added to `duplicates`. */
function nodeValue(node: JsonNode, duplicates: JsonNode[]): unknown {
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key && Object.hasOwn(out, String(key.value))) duplicates.push(key);
        // defined, not assigned: a "__proto__" key must stay a key (and fail the schema), not
        // become the object's prototype whose fields the schema would then read
        if (key && value)
          Object.defineProperty(out, String(key.value), {
            value: nodeValue(value, duplicates),
            enumerable: true,
            writable: true,
            configurable: true,
          });
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map((child) => nodeValue(child, duplicates));
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
    // the parser reports running out of stack as a syntax error of its own
    message: /Maximum call stack size exceeded/.test(error.message)
      ? `YAML: ${tooComplex(new RangeError(error.message))}`
      : `YAML syntax: ${error.message.split('\n')[0]}`,
    position: at(error.pos[0]),
  }));
  let data: unknown;
  if (syntaxErrors.length === 0) {
    try {
      data = document.toJS();
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
