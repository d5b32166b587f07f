/** One node of an operation tree: a session, or a tool call inside one. */
export interface OpNode {
  readonly id: string;
  readonly kind: 'session' | 'tool';
  readonly name: string;
  readonly startedAt: number;
  endedAt?: number;
  status?: 'ok' | 'error' | 'cancelled';
  /** Error code or other facts worth showing in a trace. */
  attributes: Record<string, string | number | boolean>;
  readonly children: OpNode[];
}

/** Creates a node; `attributes` and `children` start empty. */
export function createOpNode(
  kind: OpNode['kind'],
  name: string,
  id: string,
  startedAt: number = Date.now(),
): OpNode {
  return { id, kind, name, startedAt, attributes: {}, children: [] };
}

/** Renders a tree as indented lines (for `--trace` output and logs). */
export function formatOpTree(node: OpNode, indent = ''): string {
  const duration = node.endedAt === undefined ? 'running' : `${node.endedAt - node.startedAt} ms`;
  const status = node.status ? ` ${node.status}` : '';
  const code = typeof node.attributes.code === 'string' ? ` ${node.attributes.code}` : '';
  const lines = [
    `${indent}${node.kind === 'session' ? '◆' : '•'} ${node.name} (${duration})${status}${code}`,
  ];
  for (const child of node.children) lines.push(formatOpTree(child, `${indent}  `));
  return lines.join('\n');
}
