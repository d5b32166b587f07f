import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ToolError, stableStringify } from '@toolplane/core';
import { type McpServerConfig, isStdioConfig } from '../config/types.js';
import type { McpSessionFactory } from '../session/session.js';
import { DEFAULT_RESTART_POLICY, type RestartPolicy } from './backoff.js';

/** What a provider asks of the one process of a shared server, each setting as it applies. */
export type SharedSettings = Readonly<Record<string, unknown>>;

/** The provider options that shape a shared server's process. */
export interface SharedSettingsInput {
  readonly restartPolicy?: RestartPolicy;
  readonly killGraceMs?: number;
  readonly runDirectory?: string;
  readonly sessionFactory?: McpSessionFactory;
  readonly elicitation?: object;
  readonly sampling?: object;
  readonly roots?: object;
}

/** Settings held by the very object given (a channel, a handler), compared by identity. */
const BY_IDENTITY: ReadonlySet<string> = new Set(['sessionFactory', 'elicitation', 'sampling', 'roots']);

const DEFAULT_KILL_GRACE_MS = 1000;
const DEFAULT_RUN_DIRECTORY = '(the default)';

/** The default run directory of the stdio ledger (`<tmp>/toolplane-mcp-<uid>`), without loading it. */
function defaultRunDirectory(): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return join(tmpdir(), `toolplane-mcp-${uid}`);
}

/**
 * The settings the one process of a shared server runs under, defaults filled in, so two
 * providers that mean the same compare equal. `killGraceMs` and `runDirectory` only shape a stdio
 * server's process and are left out for a remote one.
 */
export function sharedSettingsOf(config: McpServerConfig, options: SharedSettingsInput): SharedSettings {
  const settings: Record<string, unknown> = {
    restartPolicy: { ...DEFAULT_RESTART_POLICY, ...options.restartPolicy },
  };
  if (options.sessionFactory) settings.sessionFactory = options.sessionFactory;
  // one process answers its server's requests one way: the first provider's channel and budget
  for (const key of ['elicitation', 'sampling', 'roots'] as const) {
    if (options[key] !== undefined) settings[key] = options[key];
  }
  if (isStdioConfig(config)) {
    settings.killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    const directory = options.runDirectory === undefined ? undefined : resolve(options.runDirectory);
    settings.runDirectory =
      directory === undefined || directory === defaultRunDirectory() ? DEFAULT_RUN_DIRECTORY : directory;
  }
  return settings;
}

const shown = (field: string, value: unknown): string => {
  if (value === undefined) return '(none: the default)';
  if (typeof value === 'function') return 'a function';
  if (BY_IDENTITY.has(field) && typeof value === 'object' && value !== null) return 'an object';
  if (value === DEFAULT_RUN_DIRECTORY) return value;
  return stableStringify(value);
};

/** Two settings are the same when equal as JSON (a function: the very same one). */
const same = (field: string, held: unknown, asked: unknown): boolean =>
  BY_IDENTITY.has(field) || typeof held === 'function' || typeof asked === 'function'
    ? held === asked
    : stableStringify(held) === stableStringify(asked);

/**
 * Throws `CONFIG_INVALID` when a provider asks a shared server's process for settings other than
 * those it runs under: one process has one restart policy, kill grace and run directory, and the
 * later provider's were dropped unseen.
 */
export function checkSharedSettings(server: string, held: SharedSettings, asked: SharedSettings): void {
  for (const field of new Set([...Object.keys(held), ...Object.keys(asked)])) {
    if (same(field, held[field], asked[field])) continue;
    const sameFunction =
      field === 'sessionFactory'
        ? ' (the same function)'
        : BY_IDENTITY.has(field)
          ? ' (the same object)'
          : '';
    throw new ToolError(
      'CONFIG_INVALID',
      `MCP server "${server}" is shared (shared: true) in this registry with a provider whose ${field} is ${shown(field, held[field])}, but this one's is ${shown(field, asked[field])}: one process runs under one setting; give every provider of the server the same ${field}${sameFunction}, or create this one with another registry or shared: false`,
      { details: { server, field } },
    );
  }
}
