import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { stableStringify } from '@toolplane/core';
import type { McpServerConfig } from '../config/types.js';
import { nestsDeeperThan } from '../session/nesting.js';
import type { McpServerIdentity, McpToolDefinition } from '../session/session.js';
import { MAX_DEFINITION_DEPTH, isRecord, toolProblem } from '../tools/definition-check.js';

/** What a lazy server's cache file holds. */
export interface CachedToolList {
  readonly version: 1;
  readonly server: string;
  readonly savedAt: number;
  readonly identity: McpServerIdentity;
  readonly tools: ReadonlyArray<{ readonly definition: McpToolDefinition; readonly hash: string }>;
}

/** Default cache directory: `$XDG_CACHE_HOME/toolplane/mcp-tools` or `~/.cache/toolplane/mcp-tools`. */
export function defaultToolCacheDirectory(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'toolplane', 'mcp-tools');
}

/** The cache file of a server: its name plus a hash of what identifies it (command or URL). */
export function toolCachePath(directory: string, server: string, config: McpServerConfig): string {
  const identity =
    config.type === 'stdio'
      ? { command: config.command, args: config.args ?? [], cwd: config.cwd ?? '' }
      : { url: config.url, type: config.type ?? '' };
  const digest = createHash('sha256').update(stableStringify(identity)).digest('hex').slice(0, 16);
  return join(directory, `${server}-${digest}.json`);
}

/**
 * Reads a cached tool list; undefined when absent or unreadable (then the server starts to list).
 * The file is checked as a listing is: one that holds what no listing wrote (an entry that is
 * not a tool definition with its hash, a definition nested deeper than a listing keeps, a
 * definition listed twice) is not used. It threw a `TypeError` from `start()`, or offered a
 * tool no server listed.
 */
export async function readToolCache(path: string): Promise<CachedToolList | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || parsed.version !== 1 || !isRecord(parsed.identity) || !Array.isArray(parsed.tools))
    return undefined;
  const names = new Set<string>();
  for (const entry of parsed.tools as unknown[]) {
    if (!isRecord(entry) || typeof entry.hash !== 'string' || toolProblem(entry.definition) !== undefined)
      return undefined;
    const name = (entry.definition as McpToolDefinition).name;
    if (names.has(name) || nestsDeeperThan(entry.definition, MAX_DEFINITION_DEPTH)) return undefined;
    names.add(name);
  }
  return parsed as unknown as CachedToolList;
}

/** Writes a cached tool list atomically (temp file + rename). */
export async function writeToolCache(path: string, list: CachedToolList): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(list), { mode: 0o600 });
  await rename(temp, path);
}
