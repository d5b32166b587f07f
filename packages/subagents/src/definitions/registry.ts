import { ToolError, compileSchema } from '@toolplane/core';
import type { AgentDefinition } from './definition.js';

/** Names a definition may not take: the runner's own tools live beside `agent__{name}`. */
export const RESERVED_AGENT_NAMES: readonly string[] = ['final_report', 'task_status', 'batch'];

const NAME_PATTERN = /^[A-Za-z0-9_-]{1,48}$/;

/** The subagent definitions an app offers; `agent__{name}` tools follow its changes. */
export interface AgentRegistry {
  get(name: string): AgentDefinition | undefined;
  has(name: string): boolean;
  list(): readonly AgentDefinition[];
  /** Adds or replaces a definition; `CONFIG_INVALID` naming the bad field. */
  define(definition: AgentDefinition): void;
  remove(name: string): boolean;
  /** Told after every change; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
}

/** Checks one definition; throws `CONFIG_INVALID` naming the field. */
export function checkDefinition(definition: AgentDefinition): AgentDefinition {
  const where = `agent "${String(definition?.name).slice(0, 60)}"`;
  if (typeof definition !== 'object' || definition === null) {
    throw new ToolError('CONFIG_INVALID', 'an agent definition must be an object');
  }
  if (typeof definition.name !== 'string' || !NAME_PATTERN.test(definition.name)) {
    throw new ToolError('CONFIG_INVALID', `${where}: name must match ${NAME_PATTERN.source}`);
  }
  if (RESERVED_AGENT_NAMES.includes(definition.name)) {
    throw new ToolError('CONFIG_INVALID', `${where}: the name is reserved for the runner's own tools`);
  }
  for (const field of ['description', 'systemPrompt'] as const) {
    if (typeof definition[field] !== 'string' || definition[field].trim() === '') {
      throw new ToolError('CONFIG_INVALID', `${where}: ${field} must be a non-empty string`);
    }
  }
  if (definition.model !== undefined && (typeof definition.model !== 'string' || definition.model === '')) {
    throw new ToolError('CONFIG_INVALID', `${where}: model must be a non-empty string`);
  }
  for (const [field, schema] of [
    ['inputSchema', definition.inputSchema],
    ['output.schema', definition.output?.schema],
  ] as const) {
    if (schema === undefined) continue;
    if (typeof schema !== 'object' || schema === null) {
      throw new ToolError('CONFIG_INVALID', `${where}: ${field} must be a JSON Schema object`);
    }
    try {
      compileSchema(schema);
    } catch (error) {
      throw new ToolError('CONFIG_INVALID', `${where}: ${field} does not compile`, { cause: error });
    }
  }
  if (definition.inputSchema !== undefined && definition.inputSchema.type !== 'object') {
    throw new ToolError('CONFIG_INVALID', `${where}: inputSchema must have type "object"`);
  }
  for (const key of ['maxTokens', 'maxWallTimeMs', 'maxIterations'] as const) {
    const value = definition.budgets?.[key];
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      throw new ToolError('CONFIG_INVALID', `${where}: budgets.${key} must be a positive integer`);
    }
  }
  const destinations = definition.router?.destinations;
  if (
    destinations !== undefined &&
    (!Array.isArray(destinations) || destinations.some((d) => typeof d !== 'string'))
  ) {
    throw new ToolError('CONFIG_INVALID', `${where}: router.destinations must be a list of agent names`);
  }
  return definition;
}

/**
 * A registry of subagent definitions.
 *
 * @example
 * const agents = createAgentRegistry([researcher]);
 * agents.define({ name: 'writer', description: 'Writes prose.', systemPrompt: 'You write.' });
 */
export function createAgentRegistry(definitions: readonly AgentDefinition[] = []): AgentRegistry {
  const byName = new Map<string, AgentDefinition>();
  const listeners = new Set<() => void>();
  for (const definition of definitions) {
    checkDefinition(definition);
    if (byName.has(definition.name)) {
      throw new ToolError('CONFIG_INVALID', `two agents are named "${definition.name}"; rename one`);
    }
    byName.set(definition.name, definition);
  }
  const changed = (): void => {
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch {
        // a listener's bug must not break the registry
      }
    }
  };
  return {
    get: (name) => byName.get(name),
    has: (name) => byName.has(name),
    list: () => [...byName.values()],
    define(definition) {
      byName.set(checkDefinition(definition).name, definition);
      changed();
    },
    remove(name) {
      const removed = byName.delete(name);
      if (removed) changed();
      return removed;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
