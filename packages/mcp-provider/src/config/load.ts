import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ToolError, errorMessage } from '@toolplane/core';
import type { z } from 'zod';
import { type McpConfigFormat, type RawServerEntry, normalizeDocument } from './formats.js';
import { mergeEnvFile } from './env-file.js';
import { repeatedHeaderProblems, transportHeaderProblems } from './header-names.js';
import type { InterpolationContext } from './interpolate.js';
import { interpolateEntry } from './interpolate-entry.js';
import { otherKindProblems } from './kinds.js';
import { FORMAT_PROBLEMS, type FormatProblem } from './normalize-entry.js';
import { type McpConfigProblem, createProblem } from './problems.js';
import { remoteServerSchema, stdioServerSchema, websocketServerSchema } from './schema.js';
import { stripJsonComments } from './jsonc.js';
import { serverNameProblem } from './server-name.js';
import type { McpServerConfig } from './types.js';
import { nestsDeeperThan } from '../session/nesting.js';
import { MAX_DEFINITION_DEPTH } from '../tools/definition-check.js';
import { TYPED_SERVER_KEYS, unknownKeyMessage, unknownKeys } from './unknown-keys.js';

/** Where `${...}` placeholders of a config take their values. */
export interface LoadMcpConfigOptions {
  /** Environment for `${VAR}` and `${env:VAR}`. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly workspaceFolder?: string;
  readonly userHome?: string;
  /** Values for VS Code `${input:id}`; an input's `default` is used otherwise. */
  readonly inputs?: Readonly<Record<string, string>>;
  /**
   * How a user of your program gives an input without a default its value (`set MY_INPUT`),
   * said in the problem reported for it. Default: pass it in `inputs`.
   */
  readonly inputHint?: (id: string) => string;
}

/** The servers of a config: the valid ones, and why the others cannot start. */
export interface LoadedMcpConfig {
  readonly format: McpConfigFormat;
  /** Valid, enabled servers by name, interpolated. */
  readonly servers: Readonly<Record<string, McpServerConfig>>;
  /** One entry per server that cannot be used (the others are unaffected). */
  readonly problems: readonly McpConfigProblem[];
  /** Names of servers switched off with `enabled: false` or `disabled: true`. */
  readonly disabled: readonly string[];
}

function fieldOf(path: readonly PropertyKey[]): string {
  let field = '';
  for (const part of path) {
    if (typeof part === 'number') field += `[${part}]`;
    else field += field ? `.${String(part)}` : String(part);
  }
  return field;
}

/** Fields of a server entry that are objects keyed by names the user or the server chooses. */
const KEYED_MAPS = ['env', 'headers', 'toolSchemas', 'toolsCacheTtlMs'] as const;

/**
 * A `"__proto__"` key of a map (JSON text can hold one) cannot be carried: assigning it to a
 * plain object sets the prototype, and zod's records skip it. Refused by name, never dropped.
 */
function prototypeKeyProblems(server: string, entry: RawServerEntry): McpConfigProblem[] {
  const problems: McpConfigProblem[] = [];
  for (const field of KEYED_MAPS) {
    const map = entry[field];
    if (typeof map === 'object' && map !== null && Object.hasOwn(map, '__proto__')) {
      problems.push(
        createProblem(
          server,
          `${field}.__proto__`,
          'is a key "__proto__", which cannot be passed on (a JavaScript object takes it as its prototype): rename or remove it',
        ),
      );
    }
  }
  return problems;
}

/**
 * A `toolSchemas` schema nested deeper than a listed definition may be (JSON text can nest
 * 100 000 levels): every recursive walk after it (zod, ajv, the spec's stable JSON) overflowed
 * the stack. Refused by name, as a server's definition that deep is left out.
 */
function deepSchemaProblems(server: string, entry: RawServerEntry): McpConfigProblem[] {
  const schemas = entry.toolSchemas;
  if (typeof schemas !== 'object' || schemas === null) return [];
  return Object.entries(schemas)
    .filter(([, schema]) => nestsDeeperThan(schema, MAX_DEFINITION_DEPTH))
    .map(([tool]) =>
      createProblem(
        server,
        `toolSchemas.${tool}`,
        `nests deeper than ${MAX_DEFINITION_DEPTH} levels (a tool's schema nests a few dozen): flatten it or remove it`,
      ),
    );
}

/** An issue's message; for a bad key of a record, what is wrong with the key (zod says only "Invalid key"). */
function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_key') return issue.issues[0]?.message ?? issue.message;
  return issue.message;
}

function validateEntry(server: string, entry: RawServerEntry): McpServerConfig | McpConfigProblem[] {
  if ('__notAnObject' in entry) return [createProblem(server, undefined, 'must be an object')];
  const prototypeKeys = prototypeKeyProblems(server, entry);
  if (prototypeKeys.length > 0) return prototypeKeys;
  const deepSchemas = deepSchemaProblems(server, entry);
  if (deepSchemas.length > 0) return deepSchemas;
  // Either would be a guess (the command used to win, and the url was dropped unseen).
  if (entry.command !== undefined && entry.url !== undefined) {
    return [
      createProblem(
        server,
        undefined,
        'has both "command" (stdio) and "url" (remote): keep one of them (a server is either run as a process or reached at a URL)',
      ),
    ];
  }
  if ('disabled' in entry) return [createProblem(server, 'disabled', 'must be true or false')];
  let schema: z.ZodType;
  if (entry.type === 'stdio') schema = stdioServerSchema;
  else if (entry.type === 'websocket') schema = websocketServerSchema;
  else if (entry.type === undefined || entry.type === 'http' || entry.type === 'sse') {
    if (entry.url === undefined && entry.command === undefined) {
      return [
        createProblem(server, undefined, 'has neither "command" (stdio) nor "url" (remote): set one of them'),
      ];
    }
    schema = remoteServerSchema;
  } else {
    return [
      createProblem(
        server,
        'type',
        `${JSON.stringify(entry.type)} is unknown: use stdio, http, sse or websocket`,
      ),
    ];
  }
  const otherKind = otherKindProblems(server, entry);
  if (otherKind.length > 0) return otherKind;
  const repeatedHeaders = repeatedHeaderProblems(server, entry);
  if (repeatedHeaders.length > 0) return repeatedHeaders;
  const transportHeaders = transportHeaderProblems(server, entry);
  if (transportHeaders.length > 0) return transportHeaders;
  const parsed = schema.safeParse(entry);
  if (parsed.success) return parsed.data as McpServerConfig;
  return parsed.error.issues.map((issue) =>
    createProblem(server, fieldOf(issue.path) || undefined, issueMessage(issue)),
  );
}

/**
 * Why a typed server config cannot be used (empty when it can): the loader's checks, for configs
 * given to `createMcpProvider` directly (a JavaScript caller, or an object built at run time).
 */
export function serverConfigProblems(server: string, config: unknown): McpConfigProblem[] {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    return [createProblem(server, undefined, 'must be an object')];
  }
  const unknown = unknownKeys(config, TYPED_SERVER_KEYS);
  if (unknown.length > 0) {
    return unknown.map((key) =>
      createProblem(
        server,
        key,
        key === 'envFile'
          ? 'is read by loadMcpConfig only (a typed config is already loaded): load the config with loadMcpConfig, or read the file and give its variables in "env"'
          : unknownKeyMessage(key, TYPED_SERVER_KEYS, 'a server'),
      ),
    );
  }
  if ((config as { enabled?: unknown }).enabled === false) {
    return [
      createProblem(
        server,
        'enabled',
        'is false: the server is switched off (loadMcpConfig leaves it out): skip this server, or remove "enabled" to start it',
      ),
    ];
  }
  const entry: RawServerEntry = { ...config };
  if (entry.type === undefined && entry.command !== undefined) entry.type = 'stdio';
  const validated = validateEntry(server, entry);
  return Array.isArray(validated) ? validated : [];
}

/**
 * Reads MCP server configs from a file path or an object: ours, or the files users already
 * have (`mcpServers` of Claude Desktop, Claude Code, Cursor, Windsurf and Gemini CLI, VS Code's
 * `servers` + `inputs`, Zed's `context_servers`). Interpolates `${VAR}`, `${VAR:-default}`,
 * `${env:VAR}`, `${workspaceFolder}`, `${userHome}` and `${input:id}` in command, args, env, url,
 * headers (values, never keys). A bad server is reported in `problems`; the others load.
 * Throws `CONFIG_INVALID` only when the document itself cannot be read.
 *
 * @example
 * const { servers, problems } = await loadMcpConfig('.mcp.json', { workspaceFolder: process.cwd() });
 */
export async function loadMcpConfig(
  fileOrObject: string | object,
  options: LoadMcpConfigOptions = {},
): Promise<LoadedMcpConfig> {
  let document: unknown = fileOrObject;
  if (typeof fileOrObject === 'string') {
    let text: string;
    try {
      text = await readFile(fileOrObject, 'utf8');
    } catch (error) {
      throw new ToolError(
        'CONFIG_INVALID',
        `cannot read MCP config ${fileOrObject}: ${errorMessage(error)}`,
        {
          cause: error,
        },
      );
    }
    try {
      document = JSON.parse(stripJsonComments(text));
    } catch (error) {
      throw new ToolError(
        'CONFIG_INVALID',
        `MCP config ${fileOrObject} is not valid JSON: ${errorMessage(error)}`,
        {
          cause: error,
        },
      );
    }
  }
  const normalized = normalizeDocument(document);
  if (typeof normalized === 'string') throw new ToolError('CONFIG_INVALID', `MCP config: ${normalized}`);
  const context: InterpolationContext = {
    env: options.env ?? process.env,
    ...(options.workspaceFolder === undefined ? {} : { workspaceFolder: options.workspaceFolder }),
    ...(options.userHome === undefined ? {} : { userHome: options.userHome }),
    inputs: { ...normalized.inputDefaults, ...options.inputs },
    ...(options.inputHint === undefined ? {} : { inputHint: options.inputHint }),
  };
  const servers: Record<string, McpServerConfig> = {};
  const problems: McpConfigProblem[] = [];
  const envFileBase =
    options.workspaceFolder ?? (typeof fileOrObject === 'string' ? dirname(fileOrObject) : undefined);
  const disabled: string[] = [];
  for (const [name, raw] of normalized.servers) {
    const nameProblem = serverNameProblem(name);
    if (nameProblem !== undefined) {
      problems.push(createProblem(name, undefined, nameProblem));
      continue;
    }
    if (raw.enabled === false) {
      disabled.push(name);
      continue;
    }
    const formatProblems = raw[FORMAT_PROBLEMS] as readonly FormatProblem[] | undefined;
    if (formatProblems) {
      for (const { field, what } of formatProblems) problems.push(createProblem(name, field, what));
      continue;
    }
    const serverProblems: McpConfigProblem[] = [];
    const interpolated = interpolateEntry(name, raw, context, serverProblems);
    if (serverProblems.length === 0) {
      const envFileProblem = await mergeEnvFile(name, interpolated, envFileBase);
      if (envFileProblem) serverProblems.push(envFileProblem);
    }
    const validated = validateEntry(name, interpolated);
    if (Array.isArray(validated)) serverProblems.push(...validated);
    if (serverProblems.length > 0) problems.push(...serverProblems);
    else servers[name] = validated as McpServerConfig;
  }
  return { format: normalized.format, servers, problems, disabled };
}
