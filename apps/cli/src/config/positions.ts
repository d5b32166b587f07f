import { type Node as JsonNode, findNodeAtLocation, parseTree, printParseErrorCode } from 'jsonc-parser';

/** A 1-based line and column in a config file. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** A parsed config document that can say where a field path is written. */
export interface ParsedText {
  readonly data: unknown;
  /** Syntax errors, with positions; `data` is unusable when there are any. */
  readonly syntaxErrors: readonly {
    readonly message: string;
    readonly position: Position;
    /** The field path the error is at, when it is at one (a YAML merge key that merges no map). */
    readonly path?: readonly PropertyKey[];
  }[];
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
export const segments = (path: readonly PropertyKey[]): Segment[] =>
  path.map((part) => (typeof part === 'number' ? part : String(part)));

/** Why a document could not be turned into a value: nesting deeper than the stack, or too many aliases. */
export function tooComplex(error: unknown): string {
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
