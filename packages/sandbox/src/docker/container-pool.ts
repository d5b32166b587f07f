import type Docker from 'dockerode';
import { sandboxError } from '../errors.js';
import { engineError } from './engine-errors.js';
import { OWNER_LABEL, SANDBOX_LABEL, keyLabel, ownerIsGone } from './labels.js';

/** How often a container is created again when a bind source vanished meanwhile. */
const MOUNT_ATTEMPTS = 3;
const BIND_SOURCE_GONE = /bind source path does not exist/;

/** One session's container. */
export interface SandboxContainer {
  readonly key: string;
  readonly container: Docker.Container;
  /** Commands running in it now; an idle container has none. */
  running: number;
  lastUsed: number;
  /** False once it stopped or is being removed. */
  alive: boolean;
  /** Kills its commands, for release and close. */
  readonly kills: Set<() => Promise<void>>;
  /** Undoes `prepare`. */
  cleanup?: () => void;
  /** Gives back what its spec holds (the protected paths' placeholders), once it is removed. */
  readonly releaseSpec?: () => void;
}

/** A container's create options, and what gives back what they hold once it is removed. */
export interface ContainerSpec {
  readonly options: Docker.ContainerCreateOptions;
  readonly release?: () => void;
}

/** What the pool needs from its executor. */
export interface ContainerPoolOptions {
  readonly docker: Docker;
  readonly image: string;
  readonly idleMs: number;
  readonly spec: (keyLabel: string) => ContainerSpec;
  /** Runs once a container started (the network bridge); returns what undoes it on removal. */
  readonly prepare?: (container: Docker.Container) => Promise<() => void>;
  readonly now?: () => number;
}

/**
 * The containers of one executor, one per sandbox key: created on first use (concurrent
 * first commands share one creation), reused, removed when idle past `idleMs`, on release of
 * the key and on close.
 */
export class ContainerPool {
  private readonly boxes = new Map<string, Promise<SandboxContainer>>();
  private readonly options: ContainerPoolOptions;
  private readonly now: () => number;
  private reaper: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(options: ContainerPoolOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    if (Number.isFinite(options.idleMs) && options.idleMs > 0) {
      this.reaper = setInterval(
        () => void this.reapIdle(),
        Math.max(50, Math.min(options.idleMs / 2, 60_000)),
      );
      this.reaper.unref();
    }
  }

  /** The container of `key`, created when it has none (or its old one stopped). */
  async acquire(key: string): Promise<SandboxContainer> {
    if (this.closed)
      throw sandboxError('SANDBOX_CLOSED', 'the docker sandbox executor is closed; create a new one');
    const existing = this.boxes.get(key);
    if (existing) {
      const box = await existing.catch(() => undefined);
      if (box?.alive) {
        box.lastUsed = this.now();
        return box;
      }
      if (this.boxes.get(key) === existing) this.boxes.delete(key);
      return this.acquire(key);
    }
    const creating = this.create(key);
    this.boxes.set(key, creating);
    creating.catch(() => {
      if (this.boxes.get(key) === creating) this.boxes.delete(key);
    });
    return creating;
  }

  private async create(key: string): Promise<SandboxContainer> {
    const { docker, image } = this.options;
    let container: Docker.Container | undefined;
    let spec: ContainerSpec | undefined;
    for (let attempt = 1; container === undefined; attempt++) {
      spec = this.options.spec(keyLabel(key));
      try {
        container = await docker.createContainer(spec.options);
      } catch (error) {
        spec.release?.();
        // A placeholder that another process made, found here, and removed by it since: the
        // next spec makes this process's own (bounded: a path that keeps vanishing fails).
        if (attempt < MOUNT_ATTEMPTS && BIND_SOURCE_GONE.test(String((error as Error)?.message))) continue;
        throw engineError(error, 'creating the sandbox container', image);
      }
    }
    const box: SandboxContainer = {
      key,
      container,
      running: 0,
      lastUsed: this.now(),
      alive: true,
      kills: new Set(),
      ...(spec?.release ? { releaseSpec: spec.release } : {}),
    };
    // Wait before start: a container that stops at once must not be missed.
    container
      .wait({ condition: 'next-exit' })
      .catch(() => undefined)
      .finally(() => {
        box.alive = false;
      });
    try {
      await container.start();
    } catch (error) {
      box.alive = false;
      await container.remove({ force: true }).catch(() => undefined);
      box.releaseSpec?.();
      throw engineError(error, 'starting the sandbox container', image);
    }
    if (this.options.prepare) {
      try {
        box.cleanup = await this.options.prepare(container);
      } catch (error) {
        box.alive = false;
        await container.remove({ force: true }).catch(() => undefined);
        box.releaseSpec?.();
        throw error;
      }
    }
    if (this.closed) {
      await this.remove(box);
      throw sandboxError('SANDBOX_CLOSED', 'the docker sandbox executor closed while the container started');
    }
    return box;
  }

  /** Kills the commands of a container and removes it. */
  private async remove(box: SandboxContainer): Promise<void> {
    box.alive = false;
    await Promise.all([...box.kills].map((kill) => kill().catch(() => undefined)));
    await this.removeContainer(box);
  }

  /**
   * Removes the container, then gives back its placeholders: a placeholder removed on the host
   * while a container still mounts it would be unmounted there, opening the path. When the
   * engine cannot remove the container, its placeholders stay.
   */
  private async removeContainer(box: SandboxContainer): Promise<void> {
    const removed = await box.container.remove({ force: true, v: true }).then(
      () => true,
      (error: { statusCode?: number }) => error.statusCode === 404,
    );
    box.cleanup?.();
    if (removed) box.releaseSpec?.();
  }

  /** Removes a container that cannot be trusted any more (a kill inside it failed). */
  async discard(box: SandboxContainer): Promise<void> {
    const entry = this.boxes.get(box.key);
    if (entry && (await entry.catch(() => undefined)) === box) this.boxes.delete(box.key);
    box.alive = false;
    await this.removeContainer(box);
  }

  /** Removes the container of `key`, if any. */
  async release(key: string): Promise<void> {
    const entry = this.boxes.get(key);
    if (!entry) return;
    this.boxes.delete(key);
    const box = await entry.catch(() => undefined);
    if (box) await this.remove(box);
  }

  /** Removes the containers idle past `idleMs` (no command running). */
  async reapIdle(): Promise<number> {
    const cutoff = this.now() - this.options.idleMs;
    let reaped = 0;
    for (const [key, entry] of [...this.boxes]) {
      const box = await entry.catch(() => undefined);
      if (!box || box.running > 0 || box.lastUsed > cutoff) continue;
      if (this.boxes.get(key) !== entry) continue;
      this.boxes.delete(key);
      await this.remove(box);
      reaped++;
    }
    return reaped;
  }

  /** Number of containers the pool holds. */
  get size(): number {
    return this.boxes.size;
  }

  /** Removes every container and refuses new ones. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.reaper) clearInterval(this.reaper);
    const entries = [...this.boxes.values()];
    this.boxes.clear();
    await Promise.all(
      entries.map(async (entry) => {
        const box = await entry.catch(() => undefined);
        if (box) await this.remove(box);
      }),
    );
  }
}

/**
 * Removes the sandbox containers that processes of this machine left behind when they died
 * without closing their executor; returns how many.
 */
export async function removeLeftoverContainers(docker: Docker): Promise<number> {
  const list = await docker.listContainers({ all: true, filters: { label: [SANDBOX_LABEL] } });
  let removed = 0;
  for (const info of list) {
    const owner = info.Labels?.[OWNER_LABEL];
    if (owner === undefined || !ownerIsGone(owner)) continue;
    await docker
      .getContainer(info.Id)
      .remove({ force: true, v: true })
      .then(() => removed++)
      .catch(() => undefined);
  }
  return removed;
}
