import type { CallRecord, CallTreeNode } from './call-record.js';

/**
 * The tree under `rootId` from the records of one origin, linked by their parent ids. A record
 * whose parent is not among them (cut by the limit, or pruned) is left out.
 */
export function buildCallTree(records: readonly CallRecord[], rootId: string): CallTreeNode | undefined {
  const nodes = new Map<string, CallTreeNode>();
  for (const { tenantId: _tenant, ...record } of records)
    nodes.set(record.callId, { ...record, children: [] });
  for (const node of nodes.values()) {
    if (node.parentId === null || node.callId === rootId) continue;
    nodes.get(node.parentId)?.children.push(node);
  }
  return nodes.get(rootId);
}
