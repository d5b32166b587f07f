import { type Document, isAlias, isCollection, isPair, isScalar } from 'yaml';

/**
 * The most values a YAML config may hold once its aliases are expanded. A config holds hundreds;
 * "billion laughs" (nine aliases of nine aliases of ...) holds billions from a few lines.
 */
export const MAX_EXPANDED_VALUES = 1_000_000;

/**
 * How many values `document` holds with every alias expanded (each alias counts the values of
 * its anchor), counted up to just past {@link MAX_EXPANDED_VALUES}. Linear in the document's
 * size: each node is counted once and an alias reuses its anchor's count. Walked with an explicit
 * stack (no recursion). An alias of a node that is still open (`&a [*a]`) counts 1.
 *
 * `yaml`'s own guard (`maxAliasCount`, 100 by default) counts uses of each anchor instead, so a
 * config with 101 entries that merge one anchor (`<<: *server`) was refused as "a resource
 * exhaustion attack"; this bounds what matters, the size of the result.
 */
export function expandedValues(document: Document): number {
  const limit = MAX_EXPANDED_VALUES + 1;
  const sizes = new Map<unknown, number>();
  const anchors = new Map<string, unknown>();
  type Frame = { node: unknown; children: unknown[]; next: number; total: number };
  const open: Frame[] = [];
  const childrenOf = (node: unknown): unknown[] => {
    if (isPair(node)) return [node.key, node.value];
    if (isCollection(node)) return node.items as unknown[];
    return [];
  };
  let result = 0;
  const finish = (node: unknown, size: number): void => {
    const capped = Math.min(size, limit);
    sizes.set(node, capped);
    const parent = open[open.length - 1];
    if (parent) parent.total = Math.min(parent.total + capped, limit);
    else result = capped;
  };
  const enter = (node: unknown): void => {
    if (node === null || node === undefined) {
      finish(node, 0);
      return;
    }
    const anchor = (node as { anchor?: string }).anchor;
    if (anchor) anchors.set(anchor, node);
    if (isAlias(node)) finish(node, sizes.get(anchors.get(node.source)) ?? 1);
    else if (isScalar(node)) finish(node, 1);
    // a pair is no value of its own: its key and value are
    else open.push({ node, children: childrenOf(node), next: 0, total: isPair(node) ? 0 : 1 });
  };
  enter(document.contents);
  while (open.length > 0) {
    const frame = open[open.length - 1] as Frame;
    if (frame.next < frame.children.length && frame.total < limit) {
      enter(frame.children[frame.next++]);
      continue;
    }
    open.pop();
    finish(frame.node, frame.total);
  }
  return result;
}
