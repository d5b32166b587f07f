import {
  type Middleware,
  type NextMiddleware,
  type ToolCall,
  type ToolResult,
  stableStringify,
  type ToolContext,
} from '@toolplane/core';
import type { CallState } from '../call/call-state.js';
import type { ToolRoute } from '../registry/registry.js';
import { Flights, MAX_WAITS, waitFor } from './cache-flights.js';

/** Options of the response cache. */
export interface CacheOptions {
  /** Entries kept at most (least recently used go first). Default 1000. */
  readonly maxEntries?: number;
  /**
   * `principal` (default) keys entries by tenant and user as well, so one user never gets
   * another's cached answer; `global` shares entries between everyone.
   */
  readonly scope?: 'principal' | 'global';
}

interface Entry {
  readonly expiresAt: number;
  readonly result: ToolResult;
  /** The provider's tool list the answer was made under: a re-list drops the answer. */
  readonly listing: unknown;
}

/**
 * Caches successful results of tools that have a cache TTL (from the tool, its provider's
 * registration), keyed by tool and a stable serialization of the arguments. An answer made
 * before its provider re-listed its tools is not served: the tool may have changed.
 */
export function cacheMiddleware(
  options: CacheOptions,
  deps: { stateOf: (ctx: ToolContext) => CallState | undefined; now: () => number },
): Middleware & { clear(): void } {
  const maxEntries = options.maxEntries ?? 1000;
  const entries = new Map<string, Entry>();
  const flights = new Flights();
  return {
    name: 'cache',
    phase: 'cache',
    clear: () => {
      entries.clear();
      flights.clear();
    },
    handle(call, next) {
      // the call's own route decides TTL and key: a middleware may hand on a copy of its tool (or,
      // wrongly, another tool, which the provider step refuses: never cached under that name)
      const state = deps.stateOf(call.ctx);
      const tool = (state?.route ?? call.tool) as Partial<ToolRoute>;
      const ttl = tool.cacheTtlMs;
      // no TTL: hand the call on without an async frame of our own
      if (!ttl || ttl <= 0) return next(call);
      return cached(call, next, state, ttl, tool.name ?? call.tool.name, tool.entry?.specs);
    },
  };

  async function cached(
    call: ToolCall,
    next: NextMiddleware,
    state: CallState | undefined,
    ttl: number,
    name: string,
    listing: unknown,
  ): Promise<ToolResult> {
    const who =
      options.scope === 'global'
        ? ''
        : `${call.ctx.principal.tenantId ?? ''}/${call.ctx.principal.userId ?? ''}`;
    const key = `${name}\u0000${who}\u0000${stableStringify(call.args)}`;
    // calls with this key made while one runs wait for its answer rather than run the tool again;
    // when it has none to share (it failed, or was stopped), one of them runs it (a bounded retry)
    for (let waits = 0; ; waits++) {
      const hit = entries.get(key);
      if (hit && hit.expiresAt > deps.now() && hit.listing === listing) {
        entries.delete(key);
        entries.set(key, hit);
        return served(hit.result, state);
      }
      if (hit) entries.delete(key);
      const flight = waits < MAX_WAITS ? flights.find(key, listing) : undefined;
      if (!flight) break;
      const waited = await waitFor(flight, state);
      if ('stopped' in waited) return stoppedResult(state);
      if (waited.result?.ok) return served(waited.result, state);
    }
    const end = flights.start(key, listing, state);
    let result: ToolResult;
    try {
      result = await next(call);
    } catch (error) {
      end(undefined);
      throw error;
    }
    if (result.ok) {
      const { meta: _meta, ...bare } = result;
      entries.set(key, { expiresAt: deps.now() + ttl, result: copyOf(bare), listing });
      if (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
    }
    end(result);
    return result;
  }
}

/** A cached (or shared) answer for a call: a fresh copy, marked cached and answered. */
function served(result: ToolResult, state: CallState | undefined): ToolResult {
  if (state) {
    state.cached = true;
    state.answered = true;
  }
  return copyOf(result);
}

/** The failure of a call stopped while it waited for another's answer. */
function stoppedResult(state: CallState | undefined): ToolResult {
  const reason = state?.stopReason;
  return {
    ok: false,
    error: {
      code: reason?.code ?? 'CANCELLED',
      message: reason?.message ?? 'the call was stopped while it waited for the same call to answer',
      retryable: reason?.retryable ?? false,
    },
  };
}

/**
 * A copy of a successful result that shares nothing a holder could change in place with the
 * original: the cache keeps one and hands out another per hit, so a hook, a middleware or the
 * caller that edits the result it got (appends a block, edits a text) does not change the
 * cached answer. Structured output is JSON data (the size cap checks it), so JSON copies it.
 */
function copyOf(result: ToolResult): ToolResult {
  if (!result.ok) return result;
  const content = result.content.map((block) =>
    block.type === 'resource' ? { ...block, resource: { ...block.resource } } : { ...block },
  );
  if (result.structured === undefined) return { ...result, content };
  return { ...result, content, structured: jsonCopy(result.structured) };
}

/** A JSON copy of `value`; the value itself when JSON cannot carry it (no size cap checked it). */
function jsonCopy(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? value : JSON.parse(text);
  } catch {
    return value;
  }
}
