/**
 * Readers for the MCP config files users already have. Each turns one foreign entry into the
 * shape of our typed config (not yet interpolated or validated), so one validator serves all.
 */

/** A raw server entry after format normalization, before interpolation and validation. */
export type RawServerEntry = Record<string, unknown>;

/** Key of a normalized entry that lists settings given twice in different spellings. */
export const SPELLED_TWICE = '__spelledTwice';

/** A setting an entry gives twice, in two spellings that disagree. */
export interface SpelledTwice {
  readonly field: string;
  readonly what: string;
}

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

const TYPE_ALIASES: Readonly<Record<string, string>> = {
  stdio: 'stdio',
  local: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  streamable_http: 'http',
  sse: 'sse',
  ws: 'websocket',
  websocket: 'websocket',
};

/** Cline and Roo Code allow a `timeout` of 1 to 3600 seconds (default 60). */
const LONGEST_TIMEOUT_IN_SECONDS = 3600;

/**
 * The request timeout in ms of another tool's `timeout`: seconds in Cline's and Roo Code's
 * files (1 to 3600), milliseconds in Gemini CLI's and Claude Code's (Gemini's default is
 * 600 000; Claude Code ignores values under 1000). A value up to 3600 is read as seconds: read
 * as milliseconds, Cline's default 60 would fail every call slower than 60 ms.
 */
function timeoutMs(timeout: number): number {
  return timeout > 0 && timeout <= LONGEST_TIMEOUT_IN_SECONDS ? timeout * 1000 : timeout;
}

/**
 * VS Code allows numbers as env values (`"PORT": 3000`): they are passed as their decimal
 * text. Anything else that is not a string stays, for the validator to report by name.
 */
function numbersAsText(env: Record<string, unknown>): Record<string, unknown> {
  // null prototype: a "__proto__" key stays a key (the validator refuses it by name)
  const out: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(env)) {
    out[name] = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  }
  return out;
}

/** Maps the field spellings of Claude, Cursor, Windsurf, Gemini CLI, VS Code and Zed onto ours. */
function normalizeEntry(entry: Record<string, unknown>): RawServerEntry {
  const out: RawServerEntry = { ...entry };
  delete out[SPELLED_TWICE]; // only this function sets it
  const twice: SpelledTwice[] = [];
  // Windsurf says serverUrl, Gemini CLI says httpUrl (streamable HTTP). Beside a url that
  // differs, either would be a guess (Gemini CLI itself takes httpUrl over url).
  for (const spelling of ['httpUrl', 'serverUrl'] as const) {
    if (entry.url !== undefined && entry[spelling] !== undefined && entry[spelling] !== entry.url) {
      twice.push({ field: spelling, what: `and url name different URLs: keep one` });
    }
  }
  if (out.url === undefined && typeof entry.serverUrl === 'string') out.url = entry.serverUrl;
  if (out.url === undefined && typeof entry.httpUrl === 'string') {
    out.url = entry.httpUrl;
    out.type ??= 'http';
  }
  delete out.serverUrl;
  delete out.httpUrl;
  // Zed nests the command: { command: { path, args, env } } in older versions.
  if (isRecord(entry.command)) {
    const nested = entry.command;
    for (const field of ['args', 'env'] as const) {
      if (nested[field] !== undefined && entry[field] !== undefined) {
        twice.push({ field, what: `is given both in "command" (Zed's nested form) and beside it: keep one` });
      }
    }
    out.command = nested.path ?? nested.command;
    if (nested.args !== undefined) out.args = nested.args;
    if (nested.env !== undefined) out.env = nested.env;
  }
  if (isRecord(out.env)) out.env = numbersAsText(out.env);
  if (out.requestTimeoutMs === undefined && typeof entry.timeout === 'number')
    out.requestTimeoutMs = timeoutMs(entry.timeout);
  delete out.timeout;
  // Claude Code: `disabled`.
  if (entry.disabled === true && out.enabled === undefined) out.enabled = false;
  // a disabled that is not a boolean stays, for the validator to report
  if (typeof entry.disabled === 'boolean') delete out.disabled;
  if (typeof out.type === 'string') out.type = TYPE_ALIASES[out.type] ?? out.type;
  else if (out.type === undefined && out.command !== undefined) out.type = 'stdio';
  // Fields of other tools that do not concern us.
  for (const key of [
    'source',
    'settings',
    'trust',
    'description',
    'envFile',
    'includeTools',
    'excludeTools',
  ]) {
    if (key === 'includeTools' && Array.isArray(entry.includeTools) && out.toolsAllowed === undefined)
      out.toolsAllowed = entry.includeTools;
    if (key === 'excludeTools' && Array.isArray(entry.excludeTools) && out.toolsDenied === undefined)
      out.toolsDenied = entry.excludeTools;
    delete out[key];
  }
  if (twice.length > 0) out[SPELLED_TWICE] = twice;
  return out;
}

function vscodeInputDefaults(inputs: unknown): Record<string, string> {
  const defaults: Record<string, string> = {};
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
    table = document.servers;
    inputDefaults = vscodeInputDefaults(document.inputs);
  } else {
    return 'no servers found: expected one of "servers", "mcpServers", "context_servers" or "mcp.servers"';
  }
  if (!isRecord(table))
    return `"${format === 'zed' ? 'context_servers' : format === 'mcpServers' ? 'mcpServers' : 'servers'}" must be an object of servers by name`;
  const servers: Array<readonly [string, RawServerEntry]> = [];
  for (const [name, entry] of Object.entries(table)) {
    servers.push([name, isRecord(entry) ? normalizeEntry(entry) : { __notAnObject: entry }]);
  }
  return { format, servers, inputDefaults };
}
