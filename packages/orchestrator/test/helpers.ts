import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach } from 'vitest';
import { z } from 'zod';
import {
  type Middleware,
  PROVIDER_SPEC_VERSION,
  type RegisteredTool,
  type ToolContext,
  ToolError,
  type ToolProvider,
  type ToolResult,
  type ToolSpec,
  defineTool,
  fail,
  ok,
  onAbort,
} from '@toolplane/core';

/** A tool of a test provider: its spec (name filled in) and how it runs. */
export interface TestTool {
  readonly spec?: Partial<ToolSpec>;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> | ToolResult;
}

const openObject = { type: 'object', properties: {}, additionalProperties: true } as const;

/** A provider over in-process functions, with a hook to announce list changes. */
export function testProvider(
  namespace: string,
  tools: Record<string, TestTool>,
  extra: Partial<ToolProvider> = {},
): ToolProvider & { changeTools(next: Record<string, TestTool>): void; closed: number } {
  let current = tools;
  const listeners = new Set<() => void>();
  const provider = {
    specificationVersion: PROVIDER_SPEC_VERSION as typeof PROVIDER_SPEC_VERSION,
    kind: 'local',
    namespace,
    closed: 0,
    listTools: (): ToolSpec[] =>
      Object.entries(current).map(([name, tool]) => ({
        description: `${name} tool`,
        inputSchema: openObject,
        ...tool.spec,
        name,
      })),
    async execute(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
      const tool = current[name];
      if (!tool) throw new Error(`no ${name}`);
      return tool.run(args, ctx);
    },
    onToolsChanged(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      provider.closed++;
    },
    changeTools(next: Record<string, TestTool>) {
      current = next;
      for (const listener of listeners) listener();
    },
    ...extra,
  };
  return provider;
}

/** A tool that answers with its arguments as text. */
export const echo: TestTool = { spec: { sideEffect: 'none' }, run: (args) => ok(JSON.stringify(args)) };

/** Resolves after `ms`, or rejects when `signal` aborts. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** Waits until `predicate` holds, checking every 5 ms, at most `maxMs`. */
export async function waitFor(predicate: () => boolean, maxMs = 5000): Promise<void> {
  for (let waited = 0; waited < maxMs; waited += 5) {
    if (predicate()) return;
    await delay(5);
  }
  throw new Error('condition not met in time');
}

/** The child processes of `relay` tools, by the key their call was given. */
export type Children = Map<string, ChildProcess>;

/**
 * A tool backed by a real child process: it answers with the first line the child reads on its
 * stdin (the test writes it), and kills the child when its call is stopped.
 */
export function relay(children: Children, queue?: string) {
  return defineTool({
    name: 'relay',
    description: 'Answers with the line its child process is given.',
    input: z.object({ key: z.string() }),
    sideEffect: 'none',
    ...(queue ? { queue } : {}),
    execute: async ({ key }, ctx: ToolContext): Promise<ToolResult> => {
      const child = spawn(
        process.execPath,
        ['-e', "process.stdin.once('data', (d) => { process.stdout.write(d); process.exit(0); })"],
        { stdio: ['pipe', 'pipe', 'ignore'] },
      );
      children.set(key, child);
      const stop = onAbort(ctx, () => child.kill('SIGKILL'));
      try {
        let output = '';
        child.stdout?.setEncoding('utf8');
        child.stdout?.on('data', (text: string) => {
          output += text;
        });
        const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
        if (code !== 0) return fail('EXECUTION_FAILED', `child ended by ${signal ?? code}`);
        return ok(`${key}:${output.trim()}`);
      } finally {
        stop();
      }
    },
  });
}

/** A child process that echoes every line it reads, until its stdin closes or it is killed. */
export function echoChild(): ChildProcess {
  return spawn(
    process.execPath,
    ['-e', "process.stdin.setEncoding('utf8'); process.stdin.on('data', (d) => process.stdout.write(d));"],
    { stdio: ['pipe', 'pipe', 'ignore'] },
  );
}

/**
 * A tool whose child process reports progress, one line at a time: the first line ends the call,
 * and every line, that one and later ones, is passed on to `ctx.progress` (a tool that does not
 * stop its reporter when it returns, as a streaming provider may not).
 */
export function reporter(children: Children, forwarded: string[]) {
  return defineTool({
    name: 'report',
    description: 'Reports the lines its child process prints; answers with the first.',
    input: z.object({ key: z.string() }),
    sideEffect: 'none',
    execute: ({ key }, ctx: ToolContext): Promise<ToolResult> =>
      new Promise((resolve) => {
        const child = echoChild();
        children.set(key, child);
        onAbort(ctx, () => {
          child.kill('SIGKILL');
          resolve(fail('CANCELLED', 'stopped'));
        });
        child.stdout?.setEncoding('utf8');
        child.stdout?.on('data', (text: string) => {
          for (const line of text.split('\n').filter(Boolean)) {
            forwarded.push(`${key}:${line}`);
            ctx.progress?.({ message: `${key}:${line}` });
            resolve(ok(`${key}:${line}`));
          }
        });
      }),
  });
}

/**
 * `inner` behind a start that waits on a real child process (a slow MCP server, say), and the
 * function that lets that start finish.
 */
export function slowStarting(inner: ToolProvider): { provider: ToolProvider; releaseStart: () => void } {
  let release: () => void = () => {};
  const provider: ToolProvider = {
    ...inner,
    namespace: inner.namespace,
    listTools: () => inner.listTools(),
    execute: (name, args, ctx) => inner.execute(name, args, ctx),
    start: async () => {
      const starter = spawn(process.execPath, ['-e', "process.stdin.once('data', () => process.exit(0))"], {
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      release = () => starter.stdin?.write('go\n');
      await once(starter, 'exit');
    },
  };
  return { provider, releaseStart: () => release() };
}

/**
 * Registers an afterEach that closes the orchestrator a test ran (given to `track`) and kills
 * the child processes it spawned (pushed on `children`), so one test's leftovers never reach the
 * next.
 */
export function endedAfterEach(): {
  track<T extends { close(): Promise<void> }>(orchestrator: T): T;
  readonly children: ChildProcess[];
} {
  let current: { close(): Promise<void> } | undefined;
  const children: ChildProcess[] = [];
  afterEach(async () => {
    await current?.close();
    current = undefined;
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });
  return {
    track(orchestrator) {
      current = orchestrator;
      return orchestrator;
    },
    children,
  };
}

/** The error code of a result, or OK. */
export function codeOf(result: ToolResult): string {
  return result.ok ? 'OK' : result.error.code;
}

/** The error message of a result, or '' when it succeeded. */
export function messageOf(result: ToolResult): string {
  return result.ok ? '' : result.error.message;
}

/** The ToolError a function throws (fails the test when it throws nothing or something else). */
export function thrownBy(run: () => unknown): ToolError {
  try {
    run();
  } catch (error) {
    if (ToolError.isInstance(error)) return error;
    throw new Error(`expected a ToolError, got ${String(error)}`);
  }
  throw new Error('expected a ToolError, nothing was thrown');
}

/** A middleware whose only part is its `filterTools`. */
export function filtering(
  name: string,
  filterTools: (tools: readonly RegisteredTool[]) => readonly RegisteredTool[],
): Middleware {
  return { name, phase: 'gate', filterTools };
}

export const VIEW = { principal: { agentId: 'coder' }, session: { id: 's1', depth: 0 } };

export interface BatchEntry {
  readonly tool: string;
  readonly ok: boolean;
  readonly text?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

export function batchEntries(result: ToolResult): BatchEntry[] {
  if (!result.ok) throw new Error(`the batch failed: ${result.error.code} ${result.error.message}`);
  return (result.structured as { results: BatchEntry[] }).results;
}

/** A tool that never answers until its call is stopped (then it reports how it was stopped). */
export function hung(sideEffect: 'none' | 'mutating', stops: string[]) {
  return {
    spec: { sideEffect },
    run: (_args: Record<string, unknown>, ctx: ToolContext) =>
      new Promise<ToolResult>((resolve) => {
        ctx.onAbort?.((reason) => {
          stops.push((reason as { code?: string }).code ?? String(reason));
          resolve(fail('CANCELLED', 'stopped'));
        });
      }),
  };
}

/** A tool that counts its runs. */
export function counted(sideEffect: 'none' | 'mutating' = 'none') {
  const tool = {
    runs: 0,
    spec: { sideEffect },
    run: () => {
      tool.runs++;
      return ok(`run ${tool.runs}`);
    },
  };
  return tool;
}
