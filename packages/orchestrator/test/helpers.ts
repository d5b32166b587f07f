import {
  PROVIDER_SPEC_VERSION,
  type ToolContext,
  type ToolProvider,
  type ToolResult,
  type ToolSpec,
  ok,
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
