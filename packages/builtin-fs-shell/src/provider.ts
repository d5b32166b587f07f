import {
  type Executor,
  PROVIDER_SPEC_VERSION,
  type Tool,
  type ToolContext,
  type ToolProvider,
  type ToolResult,
  type ToolSpec,
  ToolError,
  fail,
} from '@toolplane/core';
import { DEFAULT_ENV_ALLOW_LIST, buildCommandEnv } from './executor/environment.js';
import { createHostExecutor } from './executor/host-executor.js';
import { sharedCountThreads } from './files/count-threads.js';
import { IndexAhead } from './files/index-ahead.js';
import { InFlightCalls } from './in-flight-calls.js';
import { LineIndexCache } from './files/line-index.js';
import { PathLocks } from './files/path-locks.js';
import { ScannerPool } from './files/newline-scanner.js';
import type { GrepEngineOptions } from './grep/options.js';
import { checkProviderOptions } from './provider-options.js';
import { SessionSandboxes } from './session/session-sandboxes.js';
import { SessionStore } from './session/session-store.js';
import { TaskManager } from './tasks/task-manager.js';
import { createBashTool } from './tools/bash.js';
import type { ToolDeps, ToolLimits } from './tools/deps.js';
import { createEditTool } from './tools/edit.js';
import { createGlobTool } from './tools/glob.js';
import { createGrepTool } from './tools/grep.js';
import { createListTool } from './tools/list.js';
import { createReadTool } from './tools/read.js';
import { createProcessTool, createTaskOutputTool, createTaskStopTool } from './tools/tasks.js';
import { createTodoReadTool, createTodoWriteTool } from './tools/todo.js';
import { createNotebookEditTool } from './tools/notebook-edit.js';
import { createWebFetchTool } from './tools/web-fetch.js';
import { createWriteTool } from './tools/write.js';
import type { Agent } from 'undici';
import type { WebFetchOptions } from './web/options.js';
import type { Mount } from './workspace/mounts.js';
import { Workspace } from './workspace/workspace.js';

/** Names of the built-in tools. */
export const BUILTIN_TOOL_NAMES = [
  'read',
  'write',
  'edit',
  'list',
  'glob',
  'grep',
  'bash',
  'task_output',
  'task_stop',
  'process',
  'todo_write',
  'todo_read',
  'web_fetch',
  'notebook_edit',
] as const;

/** One of {@link BUILTIN_TOOL_NAMES}. */
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** Options of {@link createBuiltinProvider}. */
export interface BuiltinProviderOptions {
  /** Absolute path of the directory the tools work in; every path resolves inside it. */
  readonly workspace: string;
  /** Further absolute directories the file tools may reach. */
  readonly extraRoots?: readonly string[];
  /** Workspace-relative globs that are read-only to the tools; replaces the defaults (`[]` for none). */
  readonly protectedPaths?: readonly string[];
  /** Parts of the workspace served by other file-system backends. */
  readonly mounts?: readonly Mount[];
  /** Host environment variables passed to commands (names, or prefixes ending in `*`). */
  readonly envAllowList?: readonly string[];
  /** Variables set for every command, on top of the allow-listed ones. */
  readonly env?: Readonly<Record<string, string>>;
  /** Where commands run when the call context has no executor (default: the host). */
  readonly executor?: Executor;
  readonly grep?: GrepEngineOptions;
  readonly webFetch?: WebFetchOptions;
  readonly limits?: Partial<ToolLimits>;
  /** The tools to offer (default: all). */
  readonly tools?: readonly BuiltinToolName[];
  /**
   * After a `read` of a large file that stops before its end, build the file's line index in
   * the background so a later read deeper into it is fast. `false` turns it off; `minBytes`
   * (default 32 MiB) is the smallest file it runs for.
   */
  readonly indexAhead?: false | { readonly minBytes?: number };
  /**
   * Count newlines deep into large files on worker threads (the process's one set, up to 4,
   * started on first use, gone after 30 s idle). `false` keeps every scan on the calling thread.
   */
  readonly countThreads?: boolean;
}

/** Default smallest file indexed ahead: below it a cold scan takes a few milliseconds. */
export const INDEX_AHEAD_MIN_BYTES = 32 * 1024 * 1024;

/** The reason the calls still running when the provider closes are aborted with. */
const CLOSED = new ToolError('CANCELLED', 'the builtin provider was closed while the call ran');

/** How long `close()` waits for the calls it cancelled to settle before it closes the rest. */
const CLOSE_GRACE_MS = 10_000;

/** The built-in provider, with session housekeeping on top of {@link ToolProvider}. */
export interface BuiltinProvider extends ToolProvider {
  /** The confinement every path goes through. */
  readonly workspace: Workspace;
  /**
   * Ends a session: stops its background tasks, drops its state (reads, todos) and releases its
   * sandbox (`executor.release(sessionId)`) in every executor that ran its commands. Rejects
   * when a release failed, after everything else was done.
   */
  forgetSession(sessionId: string): Promise<void>;
  /** Resolves when no background line-index build is running (see the `indexAhead` option). */
  indexingIdle(): Promise<void>;
}

/**
 * Refuses top-level arguments a tool does not have: a misspelled option (`start_line` for
 * `offset`, `include` for `glob`) would otherwise be dropped and the call run without it.
 */
function unknownArguments(spec: ToolSpec, args: unknown): ToolResult | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const properties = (spec.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
  const unknown = Object.keys(args).filter((key) => !Object.hasOwn(properties, key));
  if (unknown.length === 0) return undefined;
  const names = Object.keys(properties);
  return fail(
    'INVALID_ARGUMENTS',
    `${spec.name} has no argument${unknown.length === 1 ? '' : 's'} ${unknown.map((key) => `"${key}"`).join(', ')}; ${names.length ? `its arguments are ${names.join(', ')}` : 'it takes no arguments'}`,
    { details: { unknownArguments: unknown } },
  );
}

/** Defaults of {@link ToolLimits}. */
export const DEFAULT_LIMITS: ToolLimits = {
  readDefaultLines: 2000,
  readMaxBytes: 256 * 1024,
  readMaxLineLength: 2000,
  readMaxImageBytes: 5 * 1024 * 1024,
  editMaxBytes: 10 * 1024 * 1024,
  listDefaultLimit: 500,
  globDefaultLimit: 200,
  grepDefaultLimit: 200,
  bashDefaultTimeoutMs: 60_000,
  bashMaxTimeoutMs: 600_000,
  bashMaxOutputBytes: 64 * 1024,
  taskMaxOutputBytes: 1024 * 1024,
  tasksMaxRunningPerSession: 16,
  tasksMaxRunning: 64,
  tasksMaxFinishedPerSession: 50,
  tasksMaxFinished: 128,
  sessionsMax: 1024,
  readRecordsPerSession: 4096,
  executorGraceMs: 5_000,
};

const FACTORIES: Readonly<Record<BuiltinToolName, (deps: ToolDeps) => Tool>> = {
  read: createReadTool,
  write: createWriteTool,
  edit: createEditTool,
  list: createListTool,
  glob: createGlobTool,
  grep: createGrepTool,
  bash: createBashTool,
  task_output: createTaskOutputTool,
  task_stop: createTaskStopTool,
  process: createProcessTool,
  todo_write: createTodoWriteTool,
  todo_read: createTodoReadTool,
  web_fetch: createWebFetchTool,
  notebook_edit: createNotebookEditTool,
};

/**
 * The built-in file, search, shell, process and web tools as one provider (namespace
 * `builtin`, public names unprefixed: `read`, `bash`). Paths are confined to the workspace;
 * per-session state (read-before-write records, todos, background tasks) is keyed by
 * `ctx.session.id`. Commands run on `ctx.services.executor` when the call has one, else on
 * `options.executor`, else on the host.
 *
 * @example
 * const provider = createBuiltinProvider({ workspace: '/home/me/project' });
 * const result = await provider.execute('read', { path: 'README.md' }, createToolContext());
 */
export function createBuiltinProvider(options: BuiltinProviderOptions): BuiltinProvider {
  if (typeof options !== 'object' || options === null)
    throw new ToolError('CONFIG_INVALID', 'createBuiltinProvider needs options with at least { workspace }');
  checkProviderOptions(options, BUILTIN_TOOL_NAMES);
  const workspace = new Workspace(options);
  const limits: ToolLimits = { ...DEFAULT_LIMITS, ...options.limits };
  let hostExecutor: Executor | undefined;
  const fallbackExecutor = (): Executor => {
    if (options.executor) return options.executor;
    hostExecutor ??= createHostExecutor();
    return hostExecutor;
  };
  const allowList = options.envAllowList ?? DEFAULT_ENV_ALLOW_LIST;
  const tasks = new TaskManager(
    limits.taskMaxOutputBytes,
    limits.executorGraceMs,
    limits.tasksMaxFinishedPerSession,
    limits.tasksMaxFinished,
  );
  const sessions = new SessionStore(limits.sessionsMax, limits.readRecordsPerSession);
  const sandboxes = new SessionSandboxes(limits.sessionsMax);
  // undici loads with the first web_fetch call: listing or reading files never pays for it
  let agent: Promise<Agent> | undefined;
  const webAgent = (): Promise<Agent> => {
    agent ??= import('./web/guarded-agent.js').then(({ createGuardedAgent }) =>
      createGuardedAgent({
        allowPrivate: options.webFetch?.allowPrivate === true,
        ...(options.webFetch?.allowedRanges ? { allowedRanges: options.webFetch.allowedRanges } : {}),
        connectTimeoutMs: options.webFetch?.timeoutMs ?? 30_000,
      }),
    );
    return agent;
  };
  const lineIndex = new LineIndexCache();
  const scanners = new ScannerPool();
  const countThreads = options.countThreads === false ? null : sharedCountThreads();
  const indexAhead = new IndexAhead({
    index: lineIndex,
    scanners,
    threads: countThreads,
    minBytes:
      options.indexAhead === false
        ? Number.POSITIVE_INFINITY
        : (options.indexAhead?.minBytes ?? INDEX_AHEAD_MIN_BYTES),
  });
  let closed = false;
  const inFlight = new InFlightCalls();
  const deps: ToolDeps = {
    workspace,
    sessions,
    lineIndex,
    pathLocks: new PathLocks(),
    scanners,
    countThreads,
    indexAhead,
    limits,
    tasks,
    sandboxes,
    grep: options.grep ?? {},
    webFetch: options.webFetch ?? {},
    webAgent,
    isClosed: () => closed,
    executorFor: (ctx: ToolContext) => ctx.services.executor ?? fallbackExecutor(),
    commandEnv: () => buildCommandEnv(process.env, allowList, options.env),
  };
  const names = options.tools ?? BUILTIN_TOOL_NAMES;
  const tools = new Map<string, Tool>();
  for (const name of names) {
    tools.set(name, FACTORIES[name](deps));
  }
  const specs: readonly ToolSpec[] = [...tools.values()].map((tool) => tool.spec);
  return {
    specificationVersion: PROVIDER_SPEC_VERSION,
    kind: 'builtin',
    namespace: 'builtin',
    prefixNames: false,
    workspace,
    listTools: () => specs,
    execute(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
      const tool = tools.get(name);
      if (!tool)
        return Promise.resolve(
          fail('TOOL_NOT_FOUND', `builtin has no tool "${name}"; available: ${[...tools.keys()].join(', ')}`),
        );
      if (closed) return Promise.resolve(fail('PROVIDER_UNAVAILABLE', 'the builtin provider is closed'));
      const unknown = unknownArguments(tool.spec, args);
      if (unknown) return Promise.resolve(unknown);
      return inFlight.run(ctx, async (callCtx) => {
        const result = await tool.execute(args, callCtx);
        if (result.ok || !callCtx.signal.aborted) return result;
        // A call that had started nothing yet says so (PROVIDER_UNAVAILABLE: safe to retry elsewhere).
        if (callCtx.signal.reason === CLOSED && result.error.code !== 'PROVIDER_UNAVAILABLE')
          return fail('CANCELLED', `${name} was cancelled: the builtin provider was closed while it ran`);
        // An abort surfaces inside tools as an AbortError; report it as the cancellation it is.
        return result.error.code === 'EXECUTION_FAILED' ? fail('CANCELLED', `${name} was cancelled`) : result;
      });
    },
    instructions: () =>
      `File tools work inside ${workspace.root}; paths are relative to it. Read a file before you write or edit it.`,
    async forgetSession(sessionId: string) {
      await tasks.forgetSession(sessionId);
      sessions.forget(sessionId);
      await sandboxes.release(sessionId);
    },
    indexingIdle: () => indexAhead.idle(),
    async close() {
      if (closed) return;
      closed = true;
      await inFlight.cancelAll(CLOSED, CLOSE_GRACE_MS);
      await indexAhead.close();
      await tasks.close();
      await sandboxes.releaseAll();
      await hostExecutor?.close?.();
      // an agent that failed to be created has nothing to close
      await agent?.then(
        (created) => created.close(),
        () => undefined,
      );
    },
  };
}
