/**
 * Readers for the MCP config files users already have: where each format keeps its servers
 * (each entry is then normalized by normalize-entry.ts).
 */

import { type RawServerEntry, normalizeEntry } from './normalize-entry.js';
import { FILE_SERVER_KEYS, unknownKeyMessage, unknownKeys } from './unknown-keys.js';

/** Top-level keys of our own format (`inputs` makes it VS Code's; `$schema` is for editors). */
const DOCUMENT_KEYS: ReadonlySet<string> = new Set(['servers', 'inputs', '$schema']);

export type { RawServerEntry } from './normalize-entry.js';

/** The formats the loader recognises. */
export type McpConfigFormat = 'toolplane' | 'mcpServers' | 'vscode' | 'zed';

/** Servers found in a document, by name, and the format they came in. */
export interface NormalizedDocument {
  readonly format: McpConfigFormat;
  readonly servers: ReadonlyArray<readonly [string, RawServerEntry]>;
  /** VS Code `inputs` default values, by id. */
  readonly inputDefaults: Readonly<Record<string, string>>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function vscodeInputDefaults(inputs: unknown): Record<string, string> {
  // null prototype: an input may be called "__proto__" (setting that key of a plain object set
  // its prototype, and ${input:__proto__} had no value)
  const defaults: Record<string, string> = Object.create(null);
  if (!Array.isArray(inputs)) return defaults;
  for (const input of inputs) {
    if (isRecord(input) && typeof input.id === 'string' && typeof input.default === 'string') {
      defaults[input.id] = input.default;
    }
  }
  return defaults;
}

/**
 * Finds the servers in a config document: ours (`{ servers: { name: {...} } }` with typed
 * entries), `mcpServers` (Claude Desktop, Claude Code `.mcp.json`, Cursor, Windsurf, Gemini CLI),
 * VS Code (`servers` + `inputs`, or nested under `mcp`) and Zed (`context_servers`).
 */
export function normalizeDocument(document: unknown): NormalizedDocument | string {
  if (!isRecord(document)) return 'the config must be a JSON object';
  const tables = [
    ['mcpServers', document.mcpServers],
    ['servers', document.servers],
    ['context_servers', document.context_servers],
    ['mcp.servers', isRecord(document.mcp) ? document.mcp.servers : undefined],
  ].filter(([, table]) => table !== undefined);
  if (tables.length > 1) {
    const names = tables.map(([name]) => `"${name}"`);
    const listed = `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
    return `${listed} ${tables.length === 2 ? 'both' : 'all'} hold servers (two formats in one file, and only one would be read): keep one`;
  }
  let format: McpConfigFormat;
  let table: unknown;
  let inputDefaults: Record<string, string> = {};
  if (document.mcpServers !== undefined) {
    format = 'mcpServers';
    table = document.mcpServers;
  } else if (document.context_servers !== undefined) {
    format = 'zed';
    table = document.context_servers;
  } else if (isRecord(document.mcp) && document.mcp.servers !== undefined) {
    format = 'vscode';
    table = document.mcp.servers;
    inputDefaults = vscodeInputDefaults(document.mcp.inputs);
  } else if (document.servers !== undefined) {
    format = document.inputs !== undefined ? 'vscode' : 'toolplane';
    // In our own format an unknown key is a typo (`input`) or a setting that does nothing.
    if (format === 'toolplane') {
      const unknown = unknownKeys(document, DOCUMENT_KEYS)[0];
      if (unknown !== undefined)
        return `"${unknown}" ${unknownKeyMessage(unknown, DOCUMENT_KEYS, 'the config')}`;
    }
    table = document.servers;
    inputDefaults = vscodeInputDefaults(document.inputs);
  } else {
    return 'no servers found: expected one of "servers", "mcpServers", "context_servers" or "mcp.servers"';
  }
  if (!isRecord(table))
    return `"${format === 'zed' ? 'context_servers' : format === 'mcpServers' ? 'mcpServers' : 'servers'}" must be an object of servers by name`;
  const servers: Array<readonly [string, RawServerEntry]> = [];
  for (const [name, entry] of Object.entries(table)) {
    // Other tools' files carry keys of their own; in ours an unknown key is a typo to report.
    const known = format === 'toolplane' ? FILE_SERVER_KEYS : undefined;
    servers.push([name, isRecord(entry) ? normalizeEntry(entry, known) : { __notAnObject: entry }]);
  }
  return { format, servers, inputDefaults };
}
