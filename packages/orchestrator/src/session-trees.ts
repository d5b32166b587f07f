import { type OpHandle, type OpNode, createOpNode } from '@toolplane/core';

/**
 * One operation tree per session: a session node with a node per tool call; a tool that runs
 * a child session attaches the child's tree under its call node.
 */
export class SessionTrees {
  private readonly roots = new Map<string, OpNode>();
  private readonly maxNodes: number;
  private readonly maxSessions: number;

  constructor(options: { maxNodesPerSession?: number; maxSessions?: number } = {}) {
    this.maxNodes = options.maxNodesPerSession ?? 1000;
    this.maxSessions = options.maxSessions ?? 1000;
  }

  root(sessionId: string): OpNode {
    let root = this.roots.get(sessionId);
    if (!root) {
      if (this.roots.size >= this.maxSessions) {
        const oldest = this.roots.keys().next().value;
        if (oldest !== undefined) this.roots.delete(oldest);
      }
      root = createOpNode('session', sessionId, sessionId);
      this.roots.set(sessionId, root);
    }
    return root;
  }

  begin(sessionId: string, callId: string, tool: string, startedAt: number): OpHandle {
    const root = this.root(sessionId);
    const node = createOpNode('tool', tool, callId, startedAt);
    // drop the older half at once: amortised O(1) instead of a shift per call
    if (root.children.length >= this.maxNodes) root.children.splice(0, Math.ceil(this.maxNodes / 2));
    root.children.push(node);
    return new CallOpHandle(node);
  }

  get(sessionId: string): OpNode | undefined {
    return this.roots.get(sessionId);
  }

  end(sessionId: string): void {
    this.roots.delete(sessionId);
  }
}

/** The handle a tool gets on its own node (a class: no closure per call). */
class CallOpHandle implements OpHandle {
  readonly node: OpNode;

  constructor(node: OpNode) {
    this.node = node;
  }

  attach(child: OpNode): void {
    this.node.children.push(child);
  }
}
