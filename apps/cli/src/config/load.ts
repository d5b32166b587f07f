import { configError } from '../output/cli-error.js';
import { defaultConfig } from './default-config.js';
import { findConfigFile } from './find-file.js';
import { type ConfigIssue, formatIssue } from './issue.js';
import type { ParsedText } from './positions.js';
import type { ToolplaneConfig } from './schema.js';

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
  /** Said on stderr when loaded: a client's file was found and read without `--config`. */
  readonly notice?: string;
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
  const found = findConfigFile(cwd, explicit);
  if (found === undefined) {
    return {
      ok: true,
      loaded: { directory: cwd, kind: 'default', config: defaultConfig(), locate: () => undefined },
    };
  }
  return (await import('./read-found.js')).readFoundConfig(found);
}

const noticed = new Set<string>();

/** Reads the config for a command; invalid config ends the command with exit code 2. */
export async function loadConfig(cwd: string, explicit?: string): Promise<LoadedConfig> {
  const outcome = await readConfig(cwd, explicit);
  if (outcome.ok) {
    // once per process: which client file was read, so a silent choice cannot surprise anyone
    if (outcome.loaded.notice && !noticed.has(outcome.loaded.notice)) {
      noticed.add(outcome.loaded.notice);
      process.stderr.write(`toolplane: ${outcome.loaded.notice}\n`);
    }
    return outcome.loaded;
  }
  const first = outcome.issues[0] as ConfigIssue;
  const more = outcome.issues.length > 1 ? ` (and ${outcome.issues.length - 1} more)` : '';
  throw configError(
    `invalid config: ${formatIssue(first, cwd)}${more}`,
    'run `toolplane config validate` to see every problem',
  );
}
