import { type CallMeta, type ProgressUpdate, ToolError, type ToolFailureInfo } from '@toolplane/core';

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

const EVENT_NAMES: readonly OrchestratorEventName[] = [
  'tool_started',
  'tool_progress',
  'tool_finished',
  'tools_changed',
  'provider_failed',
  'warning',
];

type Listener<E extends OrchestratorEventName> = (payload: OrchestratorEvents[E]) => void;

type AnyListener = (payload: never) => void;

/**
 * A minimal typed emitter; emitting with no listeners costs one length check. One array per
 * event in its own field, found by a switch: a lookup keyed by the event name would turn
 * megamorphic in the call path, where several names meet.
 */
export class EventHub {
  private readonly started: AnyListener[] = [];
  private readonly progress: AnyListener[] = [];
  private readonly finished: AnyListener[] = [];
  private readonly changed: AnyListener[] = [];
  private readonly failed: AnyListener[] = [];
  private readonly warnings: AnyListener[] = [];

  /** Adds a listener; `CONFIG_INVALID` for an unknown event or a listener that is not a function. */
  on<E extends OrchestratorEventName>(event: E, listener: Listener<E>): () => void {
    if (!EVENT_NAMES.includes(event)) {
      throw new ToolError(
        'CONFIG_INVALID',
        `unknown orchestrator event "${String(event).slice(0, 100)}"; use one of ${EVENT_NAMES.join(', ')}`,
      );
    }
    if (typeof listener !== 'function') {
      throw new ToolError(
        'CONFIG_INVALID',
        `a listener of "${event}" must be a function; got ${listener === null ? 'null' : typeof listener}`,
      );
    }
    const list = this.listOf(event);
    list.push(listener as AnyListener);
    return () => {
      const index = list.indexOf(listener as AnyListener);
      if (index >= 0) list.splice(index, 1);
    };
  }

  has(event: OrchestratorEventName): boolean {
    return this.listOf(event).length > 0;
  }

  emit<E extends OrchestratorEventName>(event: E, payload: OrchestratorEvents[E]): void {
    const list = this.listOf(event) as unknown as Listener<E>[];
    if (list.length === 0) return;
    for (const listener of list) {
      try {
        listener(payload);
      } catch {
        // a listener's bug must not break a tool call
      }
    }
  }

  private listOf(event: OrchestratorEventName): AnyListener[] {
    switch (event) {
      case 'tool_started':
        return this.started;
      case 'tool_progress':
        return this.progress;
      case 'tool_finished':
        return this.finished;
      case 'tools_changed':
        return this.changed;
      case 'provider_failed':
        return this.failed;
      case 'warning':
        return this.warnings;
      default:
        throw new TypeError(`unknown orchestrator event "${String(event)}"`);
    }
  }
}
