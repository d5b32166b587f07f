import {
  NAMESPACE_SEPARATOR,
  type RegisteredTool,
  type ToolProvider,
  type ToolSpec,
  ToolError,
  allocateToolNames,
  sanitizeToolName,
} from '@toolplane/core';

/** Per-provider settings given at registration. */
export interface ProviderOptions {
  /** Timeout for this provider's tools (a tool's own `timeoutMs` and a call's win). */
  readonly timeoutMs?: number;
  /** Queue for all of this provider's tools that do not name their own. */
  readonly queue?: string;
  /** Cache TTL for this provider's tools that do not set their own. */
  readonly cacheTtlMs?: number;
  /** Extra public names: alias -> public tool name. */
  readonly aliases?: Readonly<Record<string, string>>;
}

/** A registered provider and its state. */
export interface ProviderEntry {
  readonly provider: ToolProvider;
  readonly options: ProviderOptions;
  state: 'pending' | 'starting' | 'ready' | 'failed' | 'closed';
  error?: string;
  specs: readonly ToolSpec[];
  unsubscribe?: () => void;
}

/** A tool in the map, with how to reach it. */
export interface ToolRoute extends RegisteredTool {
  readonly entry: ProviderEntry;
  readonly queue: string | undefined;
  readonly timeoutMs: number | undefined;
  readonly cacheTtlMs: number | undefined;
}

/**
 * The tool map: public names allocated in registration order (deterministic), aliases, and
 * the forgiving lookups models need (sanitized form, `ns.tool`, wrappers, case).
 */
export class ToolRegistry {
  readonly entries: ProviderEntry[] = [];
  private routes = new Map<string, ToolRoute>();
  private lowerCase = new Map<string, string | null>();
  private readonly aliases = new Map<string, string>();
  /** The public name each ready provider's tools got in the last build, by local name. */
  private assigned = new Map<ProviderEntry, Map<string, string>>();
  private list: readonly ToolRoute[] = [];

  add(entry: ProviderEntry): void {
    const namespace: unknown = entry.provider?.namespace;
    if (typeof namespace !== 'string' || !/^[A-Za-z0-9_-]+$/.test(namespace)) {
      throw new ToolError(
        'CONFIG_INVALID',
        `provider namespace ${typeof namespace === 'string' ? `"${namespace.slice(0, 100)}"` : `of type ${typeof namespace}`} must match [A-Za-z0-9_-]+ (a non-empty string of letters, digits, _ and -)`,
      );
    }
    if (typeof entry.provider.execute !== 'function' || typeof entry.provider.listTools !== 'function') {
      throw new ToolError(
        'CONFIG_INVALID',
        `provider "${namespace}" must have listTools() and execute() functions (a ToolProvider from @toolplane/core)`,
      );
    }
    if (this.entries.some((other) => other.provider.namespace === namespace)) {
      throw new ToolError(
        'CONFIG_INVALID',
        `a provider with namespace "${namespace}" is already registered${namespace === 'toolplane' ? " (the orchestrator's own tools use it)" : ''}; give each provider its own namespace`,
      );
    }
    const aliases = Object.entries(entry.options.aliases ?? {});
    for (const [alias, target] of aliases) {
      checkAlias(alias, target);
      this.checkFree(alias);
    }
    this.entries.push(entry);
    for (const [alias, target] of aliases) this.aliases.set(alias, target);
  }

  alias(alias: string, target: string): void {
    checkAlias(alias, target);
    this.checkFree(alias);
    this.aliases.set(alias, target);
  }

  /** A tool's own name resolves first: an alias that is one (now) would never be used. */
  private checkFree(alias: string): void {
    if (!this.routes.has(alias)) return;
    throw new ToolError(
      'CONFIG_INVALID',
      `${JSON.stringify(alias.slice(0, 100))} is already the name of a tool; an alias cannot take a tool's name (pick a name no tool has)`,
    );
  }

  /** Rebuilds the map from every ready provider's specs. */
  rebuild(): void {
    const wanted: string[] = [];
    const sources: Array<{ entry: ProviderEntry; spec: ToolSpec }> = [];
    for (const entry of this.entries) {
      if (entry.state !== 'ready') continue;
      const prefix = entry.provider.prefixNames !== false;
      for (const spec of entry.specs) {
        wanted.push(prefix ? `${entry.provider.namespace}${NAMESPACE_SEPARATOR}${spec.name}` : spec.name);
        sources.push({ entry, spec });
      }
    }
    const names = this.keptNames(sources, wanted);
    const routes = new Map<string, ToolRoute>();
    const lowerCase = new Map<string, string | null>();
    const list: ToolRoute[] = [];
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      const { entry, spec } = sources[i] as { entry: ProviderEntry; spec: ToolSpec };
      // frozen, with the list: a filterTools, middleware or caller that changes what it was given
      // cannot change the registry for everyone else
      const route: ToolRoute = Object.freeze({
        name,
        localName: spec.name,
        spec: Object.freeze({ ...spec, name }),
        provider: Object.freeze({ namespace: entry.provider.namespace, kind: entry.provider.kind }),
        entry,
        queue: spec.queue ?? entry.options.queue,
        timeoutMs: spec.timeoutMs ?? entry.options.timeoutMs,
        cacheTtlMs: spec.cacheTtlMs ?? entry.options.cacheTtlMs,
      });
      routes.set(name, route);
      list.push(route);
      const lower = name.toLowerCase();
      lowerCase.set(lower, lowerCase.has(lower) ? null : name);
    }
    this.routes = routes;
    this.lowerCase = lowerCase;
    this.list = Object.freeze(list);
  }

  /**
   * The public name of each tool: the one it had in the last build, if it was in it, so a
   * model holding an older list never reaches another tool by a name (a provider's list change
   * would shift `x_2` to `x`); new tools get free names in registration order.
   */
  private keptNames(
    sources: ReadonlyArray<{ entry: ProviderEntry; spec: ToolSpec }>,
    wanted: string[],
  ): string[] {
    const previous = this.assigned;
    const kept = sources.map(({ entry, spec }) => previous.get(entry)?.get(spec.name));
    const taken = new Set<string>();
    for (const name of kept) if (name !== undefined) taken.add(name);
    const fresh = allocateToolNames(
      wanted.filter((_, i) => kept[i] === undefined),
      taken,
    );
    let next = 0;
    const names = kept.map((name) => name ?? (fresh[next++] as string));
    const assigned = new Map<ProviderEntry, Map<string, string>>();
    for (let i = 0; i < sources.length; i++) {
      const { entry, spec } = sources[i] as { entry: ProviderEntry; spec: ToolSpec };
      let byLocal = assigned.get(entry);
      if (!byLocal) {
        byLocal = new Map();
        assigned.set(entry, byLocal);
      }
      byLocal.set(spec.name, names[i] as string);
    }
    this.assigned = assigned;
    return names;
  }

  /** Every tool, in registration order. The array is rebuilt only when the map changes. */
  all(): readonly ToolRoute[] {
    return this.list;
  }

  /** Whether `name` is a public tool name, exactly (no forgiving forms). */
  has(name: string): boolean {
    return this.routes.has(name);
  }

  get size(): number {
    return this.routes.size;
  }

  /** Exact name, alias, then the forgiving forms. */
  resolve(name: string): ToolRoute | undefined {
    const exact = this.routes.get(name);
    if (exact) return exact;
    return this.resolveSlow(name);
  }

  private resolveSlow(name: string): ToolRoute | undefined {
    const aliased = this.aliases.get(name);
    if (aliased) return this.routes.get(aliased);
    // wrappers some models add: `functions.read`, `<|read|>`, surrounding spaces
    const stripped = name
      .trim()
      .replace(/^<\|?|\|?>$/g, '')
      .replace(/^functions[.:]/, '');
    for (const candidate of [
      stripped,
      stripped.replace(/^([A-Za-z0-9_-]+)[./:]/, `$1${NAMESPACE_SEPARATOR}`),
    ]) {
      const direct = this.routes.get(candidate) ?? this.routes.get(sanitizeToolName(candidate));
      if (direct) return direct;
      const viaAlias = this.aliases.get(candidate);
      if (viaAlias) return this.routes.get(viaAlias);
      const folded = this.lowerCase.get(sanitizeToolName(candidate).toLowerCase());
      if (folded) return this.routes.get(folded);
    }
    return undefined;
  }

  /** Up to `limit` public names closest to `name` (for "did you mean"). */
  suggest(name: string, limit = 3): string[] {
    const target = name.toLowerCase();
    // editDistance answers max + 1 for anything further than max: never a suggestion
    const max = Math.min(MAX_SUGGEST_DISTANCE, Math.max(2, Math.floor(target.length / 3)));
    const scored: Array<{ name: string; distance: number }> = [];
    for (const route of this.list) {
      const distance = editDistance(target, route.name.toLowerCase(), MAX_SUGGEST_DISTANCE);
      if (distance <= max) scored.push({ name: route.name, distance });
    }
    scored.sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name));
    return scored.slice(0, limit).map((s) => s.name);
  }
}

/** Throws `CONFIG_INVALID` unless an alias and its target are both non-empty strings. */
function checkAlias(alias: unknown, target: unknown): void {
  if (named(alias) && named(target)) return;
  const shown = (value: unknown): string =>
    typeof value === 'string' ? JSON.stringify(value.slice(0, 100)) : typeof value;
  throw new ToolError(
    'CONFIG_INVALID',
    `an alias and its target must be non-empty strings (a name models may use -> a public tool name); got ${shown(alias)} -> ${shown(target)}`,
  );
}

/** A string with something visible in it (not empty, not only white space or zero-width characters). */
function named(value: unknown): value is string {
  return typeof value === 'string' && !/^[\s\p{Cf}]*$/u.test(value);
}

/** Edits at most between a misspelled name and a suggestion. */
const MAX_SUGGEST_DISTANCE = 8;

/** Levenshtein distance with an early exit above `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[b.length] as number;
}
