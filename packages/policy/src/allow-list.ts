import { ToolError } from '@toolplane/core';
import { type CommandPattern, compileCommandPattern } from './command-pattern.js';
import { createSerialQueue, readJsonFile, writeJsonFile } from './json-file.js';

/** What `allow-always` answers added: tool names and command patterns. */
export interface AllowListData {
  readonly version: 1;
  readonly tools: readonly string[];
  readonly commands: readonly string[];
}

/**
 * The allow-list that `allow-always` answers grow. Kept in memory, and in a JSON file when a
 * path is given (loaded on first use, written atomically on every change).
 */
export interface AllowList {
  /** Loads the file (once); later calls return at once. */
  load(): Promise<void>;
  hasTool(tool: string): boolean;
  /** Compiled command patterns, for the command rules. */
  commandPatterns(): readonly CommandPattern[];
  addTool(tool: string): Promise<void>;
  addCommands(patterns: readonly string[]): Promise<void>;
  snapshot(): AllowListData;
}

/** Options of {@link createAllowList}. */
export interface AllowListOptions {
  /** JSON file to persist to; absent keeps the list in memory only. */
  readonly path?: string;
}

/**
 * Creates an allow-list, persisted to `path` when given.
 *
 * @example
 * const allowList = createAllowList({ path: '.toolplane/allow-list.json' });
 */
export function createAllowList(options: AllowListOptions = {}): AllowList {
  const tools = new Set<string>();
  const commands = new Map<string, CommandPattern>();
  let compiled: readonly CommandPattern[] = [];
  let loading: Promise<void> | undefined;
  const queue = createSerialQueue();

  const addPattern = (source: string): void => {
    if (!commands.has(source)) {
      commands.set(source, compileCommandPattern(source));
      compiled = [...commands.values()];
    }
  };
  const snapshot = (): AllowListData => ({
    version: 1,
    tools: [...tools].sort(),
    commands: [...commands.keys()],
  });
  const persist = async (): Promise<void> => {
    if (options.path) await writeJsonFile(options.path, snapshot());
  };

  return {
    load() {
      if (!options.path) return Promise.resolve();
      loading ??= (async () => {
        const data = await readJsonFile<Partial<AllowListData>>(options.path as string, {
          version: 1,
          tools: [],
          commands: [],
        });
        if (!Array.isArray(data.tools ?? []) || !Array.isArray(data.commands ?? []))
          throw new ToolError(
            'CONFIG_INVALID',
            `${options.path}: "tools" and "commands" must be arrays of strings`,
          );
        for (const tool of data.tools ?? []) tools.add(String(tool));
        for (const pattern of data.commands ?? []) addPattern(String(pattern));
      })();
      return loading;
    },
    hasTool: (tool) => tools.has(tool),
    commandPatterns: () => compiled,
    addTool(tool) {
      return queue(async () => {
        tools.add(tool);
        await persist();
      });
    },
    addCommands(patterns) {
      return queue(async () => {
        for (const pattern of patterns) addPattern(pattern);
        await persist();
      });
    },
    snapshot,
  };
}
