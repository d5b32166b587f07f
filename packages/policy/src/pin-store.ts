import { createHash } from 'node:crypto';
import { type RegisteredTool, stableStringify } from '@toolplane/core';
import { createSerialQueue, readJsonFile, writeJsonFile } from './json-file.js';

/** One pinned tool definition. */
export interface Pin {
  readonly hash: string;
  readonly approvedAt: string;
}

/** How a tool's definition compares with its pin. */
export type PinState =
  | { readonly status: 'not-pinnable' }
  | { readonly status: 'unpinned'; readonly hash: string }
  | { readonly status: 'match'; readonly hash: string }
  | { readonly status: 'changed'; readonly hash: string; readonly pinned: string };

/**
 * Definition hashes of MCP and REST tools, recorded when a call of the tool is first approved.
 * A later definition with another hash needs approval again (a server that changes a tool's
 * description after approval cannot slip new instructions past the operator).
 */
export interface PinStore {
  load(): Promise<void>;
  /** Compares a tool's current definition with its pin. */
  state(tool: RegisteredTool): PinState;
  /** Records (or replaces) the pin of a tool. */
  pin(tool: string, hash: string): Promise<void>;
  /** Removes a pin; the next approved call pins again. */
  unpin(tool: string): Promise<void>;
  snapshot(): Readonly<Record<string, Pin>>;
}

/** Options of {@link createPinStore}. */
export interface PinStoreOptions {
  /** JSON file to persist to; absent keeps pins in memory only. */
  readonly path?: string;
  /** Clock, for `approvedAt`. */
  readonly now?: () => Date;
}

/**
 * The definition hash of a tool: `spec.meta.definitionHash` when the provider set one (the
 * convention for MCP and REST tools), otherwise computed the same way from the spec (SHA-256 of
 * the stable JSON of name, description and schemas) for tools whose provider is `mcp` or
 * `rest`. Other tools are not pinned.
 */
export function definitionHash(tool: RegisteredTool): string | undefined {
  if (hashes.has(tool)) return hashes.get(tool) ?? undefined;
  const hash = computeDefinitionHash(tool);
  hashes.set(tool, hash ?? null);
  return hash;
}

const hashes = new WeakMap<RegisteredTool, string | null>();

function computeDefinitionHash(tool: RegisteredTool): string | undefined {
  const meta = tool.spec.meta ?? {};
  if (typeof meta.definitionHash === 'string' && meta.definitionHash !== '') return meta.definitionHash;
  if (tool.provider.kind !== 'mcp' && tool.provider.kind !== 'rest') return undefined;
  const remoteName = typeof meta.remoteName === 'string' ? meta.remoteName : tool.localName;
  const { description, inputSchema, outputSchema } = tool.spec;
  return createHash('sha256')
    .update(stableStringify({ name: remoteName, description, inputSchema, outputSchema }))
    .digest('hex');
}

/**
 * Creates a pin store, persisted to `path` when given.
 *
 * @example
 * const pins = createPinStore({ path: '.toolplane/pins.json' });
 */
export function createPinStore(options: PinStoreOptions = {}): PinStore {
  const pins = new Map<string, Pin>();
  let loading: Promise<void> | undefined;
  const queue = createSerialQueue();
  const now = options.now ?? (() => new Date());
  const snapshot = (): Record<string, Pin> =>
    Object.fromEntries([...pins.entries()].sort(([a], [b]) => a.localeCompare(b)));
  const persist = async (): Promise<void> => {
    if (options.path) await writeJsonFile(options.path, { version: 1, pins: snapshot() });
  };
  return {
    load() {
      if (!options.path) return Promise.resolve();
      loading ??= (async () => {
        const data = await readJsonFile<{ pins?: Record<string, Pin> }>(options.path as string, {});
        for (const [tool, pin] of Object.entries(data.pins ?? {})) {
          if (pin && typeof pin.hash === 'string')
            pins.set(tool, { hash: pin.hash, approvedAt: String(pin.approvedAt ?? '') });
        }
      })();
      return loading;
    },
    state(tool) {
      const hash = definitionHash(tool);
      if (hash === undefined) return { status: 'not-pinnable' };
      const pin = pins.get(tool.name);
      if (!pin) {
        // A lazy server whose cached definition differs from the live one: nobody approved either.
        if (tool.spec.meta?.definitionChanged === true)
          return { status: 'changed', hash, pinned: '(cached definition)' };
        return { status: 'unpinned', hash };
      }
      if (pin.hash === hash) return { status: 'match', hash };
      return { status: 'changed', hash, pinned: pin.hash };
    },
    pin(tool, hash) {
      return queue(async () => {
        pins.set(tool, { hash, approvedAt: now().toISOString() });
        await persist();
      });
    },
    unpin(tool) {
      return queue(async () => {
        pins.delete(tool);
        await persist();
      });
    },
    snapshot,
  };
}
