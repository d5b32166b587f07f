import { type OpHandle, type OpNode, type ToolResult, createOpNode } from '@toolplane/core';

/**
 * What the tree knows of one call. Its node (with its `attributes` and `children`) is made only
 * when someone looks: the tool reads `ctx.op`, or the app reads the session's tree. Until then a
 * call costs this one object, not four.
 */
export class CallRecord {
  endedAt: number | undefined;
  status: OpNode['status'];
  code: string | undefined;
  private node: OpNode | undefined;
  private handle: OpHandle | undefined;

  constructor(
    readonly id: string,
    readonly name: string,
    readonly startedAt: number,
  ) {}

  /** The call's node, made on first use and kept up to date from then on. */
  toNode(): OpNode {
    if (!this.node) {
      const node = createOpNode('tool', this.name, this.id, this.startedAt);
      if (this.endedAt !== undefined) node.endedAt = this.endedAt;
      if (this.status) node.status = this.status;
      if (this.code !== undefined) node.attributes.code = this.code;
      this.node = node;
    }
    return this.node;
  }

  /** The handle a tool gets as `ctx.op`, to attach a child session's tree. */
  opHandle(): OpHandle {
    this.handle ??= new CallOpHandle(this.toNode());
    return this.handle;
  }

  /** Records how the call ended. */
  end(result: ToolResult, endedAt: number): void {
    this.endedAt = endedAt;
    this.status = result.ok ? 'ok' : result.error.code === 'CANCELLED' ? 'cancelled' : 'error';
    if (!result.ok) this.code = result.error.code;
    const node = this.node;
    if (!node) return;
    node.endedAt = endedAt;
    node.status = this.status;
    if (this.code !== undefined) node.attributes.code = this.code;
  }
}

interface SessionTree {
  readonly root: OpNode;
  /** Calls not yet turned into nodes of `root`; undefined once the tree was read (then calls add nodes at once). */
  pending: CallRecord[] | undefined;
}

/**
 * One operation tree per session: a session node with a node per tool call; a tool that runs
 * a child session attaches the child's tree under its call node. A session's calls are kept as
 * records until its tree is read; from then on the tree is live (new calls add their nodes).
 */
export class SessionTrees {
  private readonly sessions = new Map<string, SessionTree>();
  private readonly maxNodes: number;
  private readonly maxSessions: number;

  constructor(options: { maxNodesPerSession?: number; maxSessions?: number } = {}) {
    this.maxNodes = options.maxNodesPerSession ?? 1000;
    this.maxSessions = options.maxSessions ?? 1000;
  }

  begin(sessionId: string, callId: string, tool: string, startedAt: number): CallRecord {
    const tree = this.tree(sessionId);
    const record = new CallRecord(callId, tool, startedAt);
    const list = tree.pending;
    if (list) {
      // drop the older half at once: amortised O(1) instead of a shift per call
      if (list.length >= this.maxNodes) list.splice(0, Math.ceil(this.maxNodes / 2));
      list.push(record);
    } else {
      const children = tree.root.children;
      if (children.length >= this.maxNodes) children.splice(0, Math.ceil(this.maxNodes / 2));
      children.push(record.toNode());
    }
    return record;
  }

  /** The session's tree, live from now on (later calls add their nodes to it). */
  get(sessionId: string): OpNode | undefined {
    const tree = this.sessions.get(sessionId);
    if (!tree) return undefined;
    if (tree.pending) {
      for (const record of tree.pending) tree.root.children.push(record.toNode());
      tree.pending = undefined;
    }
    return tree.root;
  }

  end(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  private tree(sessionId: string): SessionTree {
    let tree = this.sessions.get(sessionId);
    if (!tree) {
      if (this.sessions.size >= this.maxSessions) {
        const oldest = this.sessions.keys().next().value;
        if (oldest !== undefined) this.sessions.delete(oldest);
      }
      tree = { root: createOpNode('session', sessionId, sessionId), pending: [] };
      this.sessions.set(sessionId, tree);
    }
    return tree;
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
