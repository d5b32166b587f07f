import type { ToolProvider } from '@toolplane/core';
import { type McpServerConfig, createMcpProvider } from '@toolplane/mcp-provider';

interface Entry {
  readonly provider: ToolProvider;
  refs: number;
  started?: Promise<void>;
}

/**
 * MCP server connections shared by every runtime that uses the same server of a tenant with
 * the same config: a stdio server runs once however many principals and runtime generations
 * use it, and its process stops when the last lease is closed (a reference count).
 */
export class SharedMcpProviders {
  private readonly entries = new Map<string, Entry>();

  /** A lease on the tenant's server; closing the lease drops one reference. */
  acquire(tenantId: string, name: string, config: McpServerConfig): ToolProvider {
    const key = `${tenantId}\u0000${name}\u0000${JSON.stringify(config)}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { provider: createMcpProvider(name, config), refs: 0 };
      this.entries.set(key, entry);
    }
    entry.refs += 1;
    const held = entry;
    let released = false;
    const release = async (): Promise<void> => {
      if (released) return;
      released = true;
      held.refs -= 1;
      if (held.refs > 0) return;
      if (this.entries.get(key) === held) this.entries.delete(key);
      await held.provider.close?.();
    };
    const start = (signal: AbortSignal): Promise<void> => {
      held.started ??= Promise.resolve(held.provider.start?.(signal));
      // a failed start is not kept: the next runtime tries again
      held.started.catch(() => {
        held.started = undefined;
      });
      return held.started;
    };
    return new Proxy(held.provider, {
      get(target, property) {
        if (property === 'close') return release;
        if (property === 'start') return start;
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  /** References held on each shared server (for tests and metrics). */
  references(): Record<string, number> {
    return Object.fromEntries(
      [...this.entries].map(([key, entry]) => [key.split('\u0000').slice(0, 2).join('/'), entry.refs]),
    );
  }
}
