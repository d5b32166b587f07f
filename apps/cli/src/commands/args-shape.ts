import { createScanner } from 'jsonc-parser';

/**
 * How deep `--args` may nest: as deep as the orchestrator checks a result and the MCP provider
 * takes a server's answer. Deeper arguments cannot be sent on (`JSON.stringify` recurses and
 * overflows the stack a few thousand levels down) and no tool schema needs them.
 */
export const MAX_ARGUMENT_DEPTH = 1000;

/** Where in the text: 1-based line and column. */
export interface TextPlace {
  readonly line: number;
  readonly column: number;
}

/** What {@link argumentsShape} found wrong; each is undefined when fine. */
export interface ArgumentsShape {
  /** The first key given twice in one object. */
  readonly duplicate?: TextPlace & { readonly key: string };
  /** The first bracket that opens level {@link MAX_ARGUMENT_DEPTH} + 1. */
  readonly tooDeep?: TextPlace;
}

// jsonc-parser's SyntaxKind is a const enum, which isolated modules cannot import
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const COMMA = 5;
const STRING = 10;
const EOF = 17;

/**
 * Checks valid JSON text (`JSON.parse` read it) token by token, without recursion, so text nested
 * 100,000 deep is measured instead of overflowing the stack: the first key given twice in one
 * object (`JSON.parse` keeps the last and drops the first without a word) and the first level past
 * {@link MAX_ARGUMENT_DEPTH}. Memory: one entry per open bracket and the keys of the open objects.
 */
export function argumentsShape(json: string): ArgumentsShape {
  const scanner = createScanner(json, true);
  const open: ({ keys: Set<string>; expectKey: boolean } | undefined)[] = [];
  const place = (): TextPlace => ({
    line: scanner.getTokenStartLine() + 1,
    column: scanner.getTokenStartCharacter() + 1,
  });
  for (let token = scanner.scan(); token !== EOF; token = scanner.scan()) {
    const top = open[open.length - 1];
    if (token === OPEN_BRACE || token === OPEN_BRACKET) {
      if (open.length >= MAX_ARGUMENT_DEPTH) return { tooDeep: place() };
      open.push(token === OPEN_BRACE ? { keys: new Set(), expectKey: true } : undefined);
    } else if (token === CLOSE_BRACE || token === CLOSE_BRACKET) open.pop();
    else if (token === COMMA && top) top.expectKey = true;
    else if (token === STRING && top?.expectKey) {
      const key = scanner.getTokenValue();
      if (top.keys.has(key)) return { duplicate: { key, ...place() } };
      top.keys.add(key);
      top.expectKey = false;
    }
  }
  return {};
}
