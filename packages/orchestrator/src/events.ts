import type { CallMeta, ProgressUpdate, ToolFailureInfo } from '@toolplane/core';

/** Payloads of the orchestrator's events. */
export interface OrchestratorEvents {
  tool_started: {
    readonly callId: string;
    readonly tool: string;
    readonly provider: string;
    readonly sessionId: string;
    readonly args: Readonly<Record<string, unknown>>;
  };
  tool_progress: {
    readonly callId: string;
    readonly tool: string;
    readonly sessionId: string;
    readonly update: ProgressUpdate;
  };
  tool_finished: {
    readonly callId: string;
    readonly tool: string;
    readonly sessionId: string;
    readonly ok: boolean;
    readonly error?: ToolFailureInfo;
    readonly meta: CallMeta;
  };
  tools_changed: { readonly count: number; readonly provider?: string };
  provider_failed: { readonly provider: string; readonly error: string };
  warning: { readonly message: string; readonly tool?: string; readonly provider?: string };
}

/** An event name. */
export type OrchestratorEventName = keyof OrchestratorEvents;

type Listener<E extends OrchestratorEventName> = (payload: OrchestratorEvents[E]) => void;

/** A minimal typed emitter; emitting with no listeners costs one property read. */
export class EventHub {
  private readonly listeners: { [E in OrchestratorEventName]?: Listener<E>[] } = {};

  on<E extends OrchestratorEventName>(event: E, listener: Listener<E>): () => void {
    let list = this.listeners[event] as Listener<E>[] | undefined;
    if (!list) {
      list = [];
      (this.listeners as Record<string, unknown>)[event] = list;
    }
    list.push(listener);
    return () => {
      const index = list.indexOf(listener);
      if (index >= 0) list.splice(index, 1);
    };
  }

  has(event: OrchestratorEventName): boolean {
    const list = this.listeners[event];
    return list !== undefined && list.length > 0;
  }

  emit<E extends OrchestratorEventName>(event: E, payload: OrchestratorEvents[E]): void {
    const list = this.listeners[event] as Listener<E>[] | undefined;
    if (!list) return;
    for (const listener of list) {
      try {
        listener(payload);
      } catch {
        // a listener's bug must not break a tool call
      }
    }
  }
}
