import {
  type CompiledSchema,
  type SideEffect,
  type ToolAnnotations,
  type ToolSpec,
  allocateToolNames,
  compileSchema,
  errorMessage,
} from '@toolplane/core';
import type { McpServerConfig } from '../config/types.js';
import type { McpToolDefinition } from '../session/session.js';
import { definitionHash } from './definition-hash.js';
import { createToolFilter } from './filter.js';
import { PROTO_PROPERTY_UNCHECKED, namesProtoProperty } from './proto-property.js';

/** One exposed tool: the local spec and the remote definition it came from. */
export interface CatalogEntry {
  readonly spec: ToolSpec;
  /** The name the server knows; `undefined` for the provider's own resource tools. */
  readonly remoteName: string | undefined;
  readonly definition: McpToolDefinition;
  readonly hash: string;
  /** Compiled input schema; `null` when it does not compile (validation skipped). */
  compiled?: CompiledSchema | null;
}

/** Options of {@link buildCatalog}. */
export interface CatalogOptions {
  readonly server: string;
  readonly config: McpServerConfig;
  /** Local names reserved for the provider's own tools. */
  readonly reserved?: readonly string[];
  /** Definition hashes seen before (a lazy server's cache), by remote name. */
  readonly knownHashes?: ReadonlyMap<string, string>;
}

function annotationsOf(definition: McpToolDefinition): ToolAnnotations | undefined {
  const raw = definition.annotations;
  if (!raw) return definition.title ? { title: definition.title } : undefined;
  const out: Record<string, unknown> = {};
  for (const key of ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
    const value = raw[key];
    if (key === 'title' ? typeof value === 'string' : typeof value === 'boolean') out[key] = value;
  }
  if (out.title === undefined && definition.title) out.title = definition.title;
  return Object.keys(out).length > 0 ? (out as ToolAnnotations) : undefined;
}

/** readOnly -> read (low risk), destructive -> mutating (critical by its hint), neither -> network (high). */
export function sideEffectOf(annotations: ToolAnnotations | undefined): SideEffect {
  if (annotations?.destructiveHint === true) return 'mutating';
  if (annotations?.readOnlyHint === true) return 'read';
  return 'network';
}

function isSchemaObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `map[key]` when the map has that key itself (not from `Object.prototype`). */
function ownValue<T>(map: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return map !== undefined && Object.hasOwn(map, key) ? map[key] : undefined;
}

/**
 * Turns a server's tool definitions into local specs: allow/deny filtering on remote names,
 * schema overrides, names sanitized to what LLM APIs accept (collisions suffixed `_2`, `_3`),
 * groups `mcp` and `mcp:<server>`, risk from annotations, and `meta.definitionHash` (the
 * SHA-256 of the remote definition) with `meta.definitionChanged` when it differs from before.
 */
export function buildCatalog(
  definitions: readonly McpToolDefinition[],
  options: CatalogOptions,
): CatalogEntry[] {
  const { server, config } = options;
  const allowed = createToolFilter(config.toolsAllowed, config.toolsDenied);
  const kept = definitions.filter((definition) => allowed(definition.name));
  const names = allocateToolNames(
    kept.map((definition) => definition.name),
    new Set(options.reserved ?? []),
  );
  return kept.map((definition, index) => {
    const hash = definitionHash(definition);
    // own keys only: a tool may be called "constructor" or "toString"
    const override = ownValue(config.toolSchemas, definition.name);
    const inputSchema =
      override ?? (isSchemaObject(definition.inputSchema) ? definition.inputSchema : { type: 'object' });
    const annotations = annotationsOf(definition);
    const known = options.knownHashes?.get(definition.name);
    const changed = options.knownHashes !== undefined && known !== hash;
    const cacheTtlMs = ownValue(config.toolsCacheTtlMs, definition.name) ?? config.cacheTtlMs;
    const spec: ToolSpec = {
      name: names[index] as string,
      description: definition.description ?? definition.title ?? definition.name,
      inputSchema,
      ...(isSchemaObject(definition.outputSchema) ? { outputSchema: definition.outputSchema } : {}),
      ...(definition.title ? { title: definition.title } : {}),
      ...(annotations ? { annotations } : {}),
      sideEffect: sideEffectOf(annotations),
      groups: ['mcp', `mcp:${server}`],
      ...(config.queue ? { queue: config.queue } : {}),
      ...(cacheTtlMs ? { cacheTtlMs } : {}),
      meta: {
        server,
        remoteName: definition.name,
        definitionHash: hash,
        ...(changed ? { definitionChanged: true } : {}),
      },
    };
    return { spec, remoteName: definition.name, definition, hash };
  });
}

/**
 * The compiled input schema of an entry, compiled on first use. A schema that does not compile
 * is reported once through `report` and validation is skipped for that tool (not fatal).
 */
export function compiledSchemaOf(
  entry: CatalogEntry,
  report: (message: string) => void,
): CompiledSchema | null {
  if (entry.compiled !== undefined) return entry.compiled;
  if (namesProtoProperty(entry.spec.inputSchema)) {
    entry.compiled = null;
    report(PROTO_PROPERTY_UNCHECKED);
    return null;
  }
  try {
    entry.compiled = compileSchema(entry.spec.inputSchema);
  } catch (error) {
    entry.compiled = null;
    report(errorMessage(error));
  }
  return entry.compiled;
}
