import { existsSync, readlinkSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import {
  decodeUtf8,
  INPUT_TIMEOUT_VARIABLE,
  type InputBounds,
  inputTimeout,
  inputTimeoutMs,
  readInputFile,
  unreadableKind,
} from '../input/read-input.js';
import { CliError, configError, usageError } from '../output/cli-error.js';
import { builtinNameIssues, byPosition } from './builtin-names.js';
import { expandPaths } from './expand-paths.js';
import { ownFormatIssues } from './mcp-issues.js';
import { type ParsedText, parseJsonText } from './positions.js';
import { CONFIG_KEYS, type ToolplaneConfig, configSchema } from './schema.js';
import { parseYamlText } from './yaml-text.js';
import { zodIssues } from './zod-issues.js';

/** File names looked for in the current directory, in this order. */
export const CONFIG_FILE_NAMES: readonly string[] = [
  'toolplane.config.json',
  'toolplane.config.yaml',
  'toolplane.config.yml',
];

/**
 * The largest config file read. Generous: a client's file given as it is (Claude Code's
 * `~/.claude.json` also keeps its project history) can reach tens of megabytes.
 */
export const MAX_CONFIG_BYTES = 64 * 1024 * 1024;

/** Keys of MCP client config files (Claude Desktop/Cursor/Claude Code, VS Code, Zed). */
const MCP_FILE_KEYS = ['mcpServers', 'servers', 'context_servers'] as const;

/** One problem in a config file, with where it is. */
export interface ConfigIssue {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  /** Field path such as `policy.mode` or `mcpServers.github.command`; empty for the whole file. */
  readonly path: string;
  readonly message: string;
}

/** A config as the commands use it. */
export interface LoadedConfig {
  /** Absolute path of the file; absent when no config was found (the built-in defaults). */
  readonly file?: string;
  /** Relative paths in the config resolve against this directory. */
  readonly directory: string;
  /** `toolplane` (our format), `mcp` (a client's MCP file as it is) or `default` (no file). */
  readonly kind: 'toolplane' | 'mcp' | 'default';
  readonly config: ToolplaneConfig;
  /** The document handed to the MCP config loader, when there are MCP servers. */
  readonly mcpDocument?: object;
  /** The key the MCP servers are under (`mcpServers`, `servers`, `context_servers`). */
  readonly mcpKey?: string;
  readonly locate: ParsedText['locate'];
}

/** Joins a field path for people: `a.b[0].c`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** Why a path that does not resolve to anything is missing: a link to nowhere or a link loop is named. */
function whyMissing(file: string): string {
  let target: string;
  try {
    target = readlinkSync(file);
  } catch {
    return 'does not exist';
  }
  try {
    statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return 'is a symbolic link that loops';
  }
  return `is a symbolic link to ${target}, which does not exist`;
}

/** Finds the config file: `--config` when given, else the first of {@link CONFIG_FILE_NAMES} in `cwd`. */
export function findConfigFile(cwd: string, explicit?: string): string | undefined {
  if (explicit !== undefined) {
    // resolve('') is the directory itself, which would then be called "a directory"
    if (explicit === '')
      throw usageError('--config needs a file name', 'for example --config toolplane.config.yaml');
    const file = resolve(cwd, explicit);
    if (!existsSync(file))
      throw configError(
        `config file ${explicit} ${whyMissing(file)}`,
        'check the path given to --config, or run without it to use ./toolplane.config.json',
      );
    return file;
  }
  const found = CONFIG_FILE_NAMES.filter((name) => existsSync(resolve(cwd, name)));
  // two of them: reading the first would ignore edits to the other without a word
  if (found.length > 1)
    throw configError(
      `${found.join(' and ')} are both in ${cwd}; which one is the config?`,
      `remove or rename the one not meant, or name it with --config ${found[0]}`,
    );
  return found[0] === undefined ? undefined : resolve(cwd, found[0]);
}

/**
 * Parses by the file's extension; a name with neither (a pipe such as `--config <(command)`) is
 * JSON when it starts like JSON, else YAML.
 */
function parseText(file: string, text: string): ParsedText {
  if (/\.ya?ml$/i.test(file)) return parseYamlText(text);
  if (/\.json$/i.test(file) || /^\s*[{[]/.test(text)) return parseJsonText(text);
  return parseYamlText(text);
}

/**
 * A top-level key `x-...` is ignored, as Docker Compose ignores it: a place to define YAML
 * anchors that `<<: *anchor` merges elsewhere, without an unknown field.
 */
const isExtensionKey = (key: string): boolean => key.startsWith('x-');

function isMcpFile(document: Record<string, unknown>, file: string): boolean {
  if (CONFIG_FILE_NAMES.includes(basename(file))) return false;
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

/** Result of {@link readConfig}: the config, or the problems that stop it from loading. */
export type ReadConfigOutcome =
  | { readonly ok: true; readonly loaded: LoadedConfig }
  | {
      readonly ok: false;
      readonly file: string;
      readonly issues: readonly ConfigIssue[];
      /** The MCP servers of a document that parsed but failed the schema, so they can be checked too. */
      readonly mcpDocument?: object;
      readonly locate?: ParsedText['locate'];
    };

/** Reads and validates a config (or the defaults when there is no file). Throws only for unreadable files. */
export async function readConfig(cwd: string, explicit?: string): Promise<ReadConfigOutcome> {
  const file = findConfigFile(cwd, explicit);
  if (file === undefined) {
    const config = configSchema.parse({ builtin: { workspace: '.', tools: 'read-only' } });
    return { ok: true, loaded: { directory: cwd, kind: 'default', config, locate: () => undefined } };
  }
  let text: string;
  try {
    const info = await stat(file);
    const kind = unreadableKind(info);
    if (kind)
      throw configError(`config ${file} is ${kind}`, 'give --config the path of a .json, .yaml or .yml file');
    // a regular file is checked before it is read: gigabytes would fill memory before failing to
    // parse; a pipe (`--config <(command)`), FIFO or device is read as it comes, up to the same
    // limit, and must end within the input timeout (a FIFO nobody writes to would wait forever)
    const bounds: InputBounds = {
      maxBytes: MAX_CONFIG_BYTES,
      timeoutMs: info.isFile() ? undefined : inputTimeoutMs(),
      tooLarge: () =>
        configError(
          info.isFile()
            ? `config ${file} is ${Math.ceil(info.size / (1024 * 1024))} MiB; a config file may be at most ${MAX_CONFIG_BYTES / (1024 * 1024)} MiB`
            : `config ${file} is larger than ${MAX_CONFIG_BYTES / (1024 * 1024)} MiB, the most a config file may be`,
          'give --config the config file itself (a few kilobytes of JSON or YAML)',
        ),
      tooSlow: (timeoutMs) =>
        inputTimeout(
          `config ${file} did not end within ${timeoutMs} ms (a pipe or FIFO is read until its writer closes it)`,
          `write the config and close the pipe, or give --config a regular file; or set ${INPUT_TIMEOUT_VARIABLE} to wait longer`,
        ),
    };
    text = decodeUtf8(await readInputFile(file, info, bounds), (problem) =>
      configError(`config ${file} ${problem}`, 'save it as UTF-8 (JSON and YAML files are UTF-8)'),
    );
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw configError(
      `cannot read config ${file}: ${(error as Error).message}`,
      'check that the file is readable',
    );
  }
  // editors on Windows save UTF-8 with a byte order mark; it is not part of the document
  const parsed = parseText(file, text.replace(/^\uFEFF/, ''));
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
  const directory = dirname(file);
  if (isMcpFile(record, file)) {
    const mcpKey = MCP_FILE_KEYS.find((key) => key in record) ?? 'mcpServers';
    const config = configSchema.parse({});
    return {
      ok: true,
      loaded: { file, directory, kind: 'mcp', config, mcpDocument: record, mcpKey, locate: parsed.locate },
    };
  }
  const result = configSchema.safeParse(
    Object.fromEntries(Object.entries(record).filter(([key]) => !isExtensionKey(key))),
  );
  const names = await builtinNameIssues(file, record, parsed.locate);
  if (!result.success) {
    const servers = record.mcpServers;
    return {
      ok: false,
      file,
      issues: byPosition([...zodIssues(file, parsed, result.error), ...names]),
      // our own file as the MCP loader's own format (`servers`): it refuses unknown keys of an entry
      // an mcpServers that is not an object of servers is the schema's issue (with its position)
      ...(typeof servers === 'object' && servers !== null && !Array.isArray(servers)
        ? { mcpDocument: isOwnFile(record, file) ? { servers } : { mcpServers: servers } }
        : {}),
      locate: parsed.locate,
    };
  }
  const config = result.data;
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
    },
  };
}

/** Formats an issue as `file:line:column  path  message`. */
export function formatIssue(issue: ConfigIssue, cwd: string): string {
  const where = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}:${issue.column ?? 1}`;
  const shown = where.startsWith(`${cwd}/`) ? where.slice(cwd.length + 1) : where;
  return `${shown}  ${issue.path || '(file)'}  ${issue.message}`;
}

/** Reads the config for a command; invalid config ends the command with exit code 2. */
export async function loadConfig(cwd: string, explicit?: string): Promise<LoadedConfig> {
  const outcome = await readConfig(cwd, explicit);
  if (outcome.ok) return outcome.loaded;
  const first = outcome.issues[0] as ConfigIssue;
  const more = outcome.issues.length > 1 ? ` (and ${outcome.issues.length - 1} more)` : '';
  throw configError(
    `invalid config: ${formatIssue(first, cwd)}${more}`,
    'run `toolplane config validate` to see every problem',
  );
}
