import { createRequire } from 'node:module';
import { ToolError } from '@toolplane/core';
import type { Node, Parser } from 'web-tree-sitter';

let loading: Promise<Parser> | undefined;
let loaded: Parser | undefined;

/**
 * Loads the tree-sitter bash grammar (WebAssembly) once per process. Every later call
 * returns the same parser; parsing itself is synchronous.
 */
export function loadShellParser(): Promise<Parser> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    // web-tree-sitter loads with the grammar: a process that checks no command never pays for it
    const { Language, Parser } = await import('web-tree-sitter');
    await Parser.init();
    const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(language);
    loaded = parser;
    return parser;
  })().catch((error: unknown) => {
    loading = undefined;
    throw new ToolError(
      'INTERNAL',
      'could not load the tree-sitter bash grammar; reinstall @toolplane/policy',
      {
        cause: error,
      },
    );
  });
  return loading;
}

/** The parser when {@link loadShellParser} has finished, otherwise undefined. */
export function loadedShellParser(): Parser | undefined {
  return loaded;
}

/**
 * Parses a command line into a syntax tree and hands its root to `visit`; the tree is freed
 * afterwards (tree-sitter trees live in WebAssembly memory).
 */
export function withShellTree<T>(parser: Parser, source: string, visit: (root: Node) => T): T {
  const tree = parser.parse(source);
  if (!tree) throw new ToolError('INTERNAL', 'the shell parser returned no tree');
  try {
    return visit(tree.rootNode);
  } finally {
    tree.delete();
  }
}

/** Named children of a node (indexed access: much faster than the `namedChildren` getter). */
export function namedChildrenOf(node: Node): Node[] {
  const count = node.namedChildCount;
  const out: Node[] = [];
  for (let index = 0; index < count; index++) {
    const child = node.namedChild(index);
    if (child) out.push(child);
  }
  return out;
}

/** All children of a node, anonymous ones (operators) included. */
export function childrenOf(node: Node): Node[] {
  const count = node.childCount;
  const out: Node[] = [];
  for (let index = 0; index < count; index++) {
    const child = node.child(index);
    if (child) out.push(child);
  }
  return out;
}
