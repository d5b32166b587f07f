import type { OrchestratorOptions } from '../options.js';
import { NamedQueue, type OrchestratorStats, queueStats } from './queue.js';

/**
 * The orchestrator's named queues: the configured ones, `default` from `maxConcurrency`, and an
 * unlimited lane of its own for each queue a tool names but nobody configured.
 */
export class QueueSet {
  private readonly queues = new Map<string, NamedQueue>();

  constructor(options: Pick<OrchestratorOptions, 'queues' | 'maxConcurrency'>) {
    for (const [name, queueOptions] of Object.entries(options.queues ?? {})) {
      this.queues.set(name, new NamedQueue(name, queueOptions));
    }
    if (!this.queues.has('default') && options.maxConcurrency !== undefined) {
      this.queues.set('default', new NamedQueue('default', { maxConcurrency: options.maxConcurrency }));
    }
  }

  /** The queue of a tool that names `name` (none: `default`, undefined when that is unlimited). */
  queueFor(name: string | undefined): NamedQueue | undefined {
    if (name === undefined) return this.queues.get('default');
    let queue = this.queues.get(name);
    if (!queue) {
      // a queue named by a tool but not configured: its own lane, unlimited, so it never blocks others
      queue = new NamedQueue(name);
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** Running and waiting calls of each queue. */
  stats(): OrchestratorStats['queues'] {
    return queueStats(this.queues);
  }

  /** Fails every call waiting for a slot with `CANCELLED`. */
  cancelWaiting(): void {
    for (const queue of this.queues.values()) queue.cancelWaiting();
  }
}
