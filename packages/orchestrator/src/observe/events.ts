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
 * megamorphic in the call path, where several names meet. The arrays are replaced, never
 * changed in place: a listener that unsubscribes (or subscribes one) while an event is delivered
 * changes who gets the next event, not who gets this one.
 */
export class EventHub {
  private started: readonly AnyListener[] = [];
  private progress: readonly AnyListener[] = [];
  private finished: readonly AnyListener[] = [];
  private changed: readonly AnyListener[] = [];
  private failed: readonly AnyListener[] = [];
  private warnings: readonly AnyListener[] = [];

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
    this.setList(event, [...this.listOf(event), listener as AnyListener]);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      const list = this.listOf(event);
      const index = list.indexOf(listener as AnyListener);
      if (index >= 0) this.setList(event, [...list.slice(0, index), ...list.slice(index + 1)]);
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

  private setList(event: OrchestratorEventName, list: readonly AnyListener[]): void {
    switch (event) {
      case 'tool_started':
        this.started = list;
        return;
      case 'tool_progress':
        this.progress = list;
        return;
      case 'tool_finished':
        this.finished = list;
        return;
      case 'tools_changed':
        this.changed = list;
        return;
      case 'provider_failed':
        this.failed = list;
        return;
      case 'warning':
        this.warnings = list;
        return;
      default:
        throw new TypeError(`unknown orchestrator event "${String(event)}"`);
    }
  }

  private listOf(event: OrchestratorEventName): readonly AnyListener[] {
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
