// The path of a command that found a config file: the config schema and the checks load here,
// so a command with no config (the built-in defaults) never builds them.
import { basename } from 'node:path';
import { agentIssues } from './agent-issues.js';
import { builtinNameIssues, byPosition } from './builtin-names.js';
import { closestKey } from './closest-key.js';
import { expandPaths } from './expand-paths.js';
import { CONFIG_FILE_NAMES, type FoundConfig, configDirectory } from './find-file.js';
import { formatPath } from './issue.js';
import type { ReadConfigOutcome } from './load.js';
import { ownFormatIssues } from './mcp-issues.js';
import { type ParsedText, parseJsonText } from './positions.js';
import { protoKeyIssues } from './proto-keys.js';
import { readConfigText } from './read-file.js';
import { CONFIG_KEYS, configSchema } from './schema.js';
import { zodIssues } from './zod-issues.js';

/** Keys of MCP client config files (Claude Desktop/Cursor/Claude Code, VS Code, Zed). */
const MCP_FILE_KEYS = ['mcpServers', 'servers', 'context_servers'] as const;

/** The YAML parser loads only for a YAML config: a JSON config or none never pays for it. */
async function parseYaml(text: string): Promise<ParsedText> {
  return (await import('./yaml-text.js')).parseYamlText(text);
}

/**
 * Parses by the file's extension; a name with neither (a pipe such as `--config <(command)`) is
 * JSON when it starts like JSON, else YAML.
 */
function parseText(file: string, text: string): ParsedText | Promise<ParsedText> {
  if (/\.ya?ml$/i.test(file)) return parseYaml(text);
  if (/\.json$/i.test(file) || /^\s*[{[]/.test(text)) return parseJsonText(text);
  return parseYaml(text);
}

/**
 * A top-level key `x-...` is ignored, as Docker Compose ignores it: a place to define YAML
 * anchors that `<<: *anchor` merges elsewhere, without an unknown field.
 */
const isExtensionKey = (key: string): boolean => key.startsWith('x-');

/** A key that is not ours but close to one of ours (`polciy`): a misspelling, not a client's own key. */
const isMisspelledKey = (key: string): boolean =>
  !CONFIG_KEYS.has(key) &&
  !CLIENT_FILE_KEYS.has(key) &&
  key.length >= 4 &&
  closestKey(key, CONFIG_KEYS) !== undefined;

/** Top-level keys of the clients' files (VS Code's `servers` + `inputs`, Zed's, nested `mcp`). */
const CLIENT_FILE_KEYS: ReadonlySet<string> = new Set(['servers', 'inputs', 'context_servers', 'mcp']);

function isMcpFile(document: Record<string, unknown>, file: string): boolean {
  if (CONFIG_FILE_NAMES.includes(basename(file))) return false;
  // read as a client's file, `polciy` would be dropped without a word: checked as ours, it is named
  if (Object.keys(document).some(isMisspelledKey)) return false;
  if ('servers' in document || 'context_servers' in document) return true;
  return (
    'mcpServers' in document &&
    Object.keys(document).some((key) => !CONFIG_KEYS.has(key) && !isExtensionKey(key))
  );
}

/**
 * Whether the servers are checked strictly, as ours: the file is named `toolplane.config.*`, or
 * it holds keys only our format has. A file with `mcpServers` alone may be a client's (Claude
 * Code's `.mcp.json`, Cline's settings), whose entries carry keys of their own (`alwaysAllow`).
 */
function isOwnFile(document: Record<string, unknown>, file: string): boolean {
  if (CONFIG_FILE_NAMES.includes(basename(file))) return true;
  return Object.keys(document).some(
    (key) => key !== 'mcpServers' && key !== '$schema' && !isExtensionKey(key),
  );
}

/** Reads and validates the config file found (see {@link readConfig}). */
export async function readFoundConfig(found: FoundConfig): Promise<ReadConfigOutcome> {
  const { file, notice } = found;
  const text = await readConfigText(file);
  // editors on Windows save UTF-8 with a byte order mark; it is not part of the document
  const parsed = await parseText(file, text.replace(/^\uFEFF/, ''));
  if (parsed.syntaxErrors.length > 0) {
    return {
      ok: false,
      file,
      issues: parsed.syntaxErrors.map((error) => ({
        file,
        ...error.position,
        path: error.path ? formatPath(error.path) : '',
        message: error.message,
      })),
    };
  }
  const document = parsed.data;
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return {
      ok: false,
      file,
      issues: [{ file, line: 1, column: 1, path: '', message: 'the config must be an object' }],
    };
  }
  const record = document as Record<string, unknown>;
  const directory = configDirectory(file);
  if (isMcpFile(record, file)) {
    const mcpKey = MCP_FILE_KEYS.find((key) => key in record) ?? 'mcpServers';
    const config = configSchema.parse({});
    return {
      ok: true,
      loaded: {
        file,
        directory,
        kind: 'mcp',
        config,
        mcpDocument: record,
        mcpKey,
        locate: parsed.locate,
        ...(notice ? { notice } : {}),
      },
    };
  }
  const result = configSchema.safeParse(
    Object.fromEntries(Object.entries(record).filter(([key]) => !isExtensionKey(key))),
  );
  const names = [
    ...(await builtinNameIssues(file, record, parsed.locate)),
    ...protoKeyIssues(file, record, parsed.locate, isExtensionKey),
  ];
  if (!result.success) {
    const servers = record.mcpServers;
    const schemaIssues = zodIssues(file, parsed, result.error, configSchema);
    // a "__proto__" key of a strict object is the schema's unknown field already
    const paths = new Set(schemaIssues.map((issue) => issue.path));
    return {
      ok: false,
      file,
      issues: byPosition([...schemaIssues, ...names.filter((issue) => !paths.has(issue.path))]),
      // our own file as the MCP loader's own format (`servers`): it refuses unknown keys of an entry
      // an mcpServers that is not an object of servers is the schema's issue (with its position)
      ...(typeof servers === 'object' && servers !== null && !Array.isArray(servers)
        ? { mcpDocument: isOwnFile(record, file) ? { servers } : { mcpServers: servers } }
        : {}),
      locate: parsed.locate,
    };
  }
  const config = result.data;
  names.push(...(await agentIssues(file, config, parsed.locate)));
  if (names.length > 0) {
    const servers = config.mcpServers;
    return {
      ok: false,
      file,
      issues: names,
      ...(servers ? { mcpDocument: isOwnFile(record, file) ? { servers } : { mcpServers: servers } } : {}),
      locate: parsed.locate,
    };
  }
  const unexpanded = await expandPaths(config, file, directory, parsed.locate);
  if (unexpanded.length > 0) return { ok: false, file, issues: unexpanded, locate: parsed.locate };
  if (config.mcpServers && isOwnFile(record, file)) {
    const strict = await ownFormatIssues(file, config.mcpServers, directory, parsed.locate);
    if (strict) return { ok: false, file, issues: strict };
  }
  return {
    ok: true,
    loaded: {
      file,
      directory,
      kind: 'toolplane',
      config,
      ...(config.mcpServers ? { mcpDocument: { mcpServers: config.mcpServers }, mcpKey: 'mcpServers' } : {}),
      locate: parsed.locate,
      ...(notice ? { notice } : {}),
    },
  };
}
