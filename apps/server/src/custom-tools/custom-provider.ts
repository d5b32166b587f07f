import {
  PROVIDER_SPEC_VERSION,
  type Executor,
  type ToolProvider,
  type ToolResult,
  fail,
  ok,
} from '@toolplane/core';
import { buildCommandEnv, DEFAULT_ENV_ALLOW_LIST } from '@toolplane/builtin-fs-shell';
import { argvCommand, renderArgv } from './argv.js';
import type { CustomTool } from './custom-tool.js';

/** The namespace of custom tools: public names are `custom__<name>`. */
export const CUSTOM_NAMESPACE = 'custom';

/** Output kept per stream of a custom tool's command. */
const MAX_OUTPUT_BYTES = 256 * 1024;

function describeExit(exitCode: number | null, signal: string | null): string {
  return exitCode === null ? `killed by ${signal ?? 'a signal'}` : `exited with code ${exitCode}`;
}

/**
 * The custom tools of one tenant as a provider. Each call runs the tool's argv through the
 * executor (the host, or a sandbox when one is configured) with its own environment only.
 */
export function createCustomToolProvider(options: {
  readonly tools: readonly CustomTool[];
  readonly executor: Executor;
  readonly defaultCwd: string;
}): ToolProvider {
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  return {
    specificationVersion: PROVIDER_SPEC_VERSION,
    kind: 'custom',
    namespace: CUSTOM_NAMESPACE,
    listTools: () =>
      options.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.parameters,
        sideEffect: 'spawns' as const,
        // the executor's own deadline kills the tree first and says so; this one is a backstop
        timeoutMs: tool.timeoutMs + 5_000,
      })),
    secretValues: () =>
      options.tools.flatMap((tool) => Object.values(tool.env).filter((value) => value.length >= 8)),
    async execute(name, args, ctx): Promise<ToolResult> {
      const tool = byName.get(name);
      if (!tool) return fail('TOOL_NOT_FOUND', `no custom tool "${name}": list the tools again`);
      const { command, env } = argvCommand(renderArgv(tool.argv, args));
      const run = options.executor.start({
        command,
        cwd: tool.cwd ?? options.defaultCwd,
        env: { ...buildCommandEnv(process.env, DEFAULT_ENV_ALLOW_LIST), ...tool.env, ...env },
        timeoutMs: tool.timeoutMs,
        signal: ctx.signal,
        maxOutputBytes: MAX_OUTPUT_BYTES,
        onOutput: (chunk) => ctx.progress({ message: chunk.data }),
      });
      const result = await run.done;
      if (result.timedOut)
        return fail('TIMEOUT', `${tool.name} ran past its ${tool.timeoutMs} ms timeout and was killed`);
      if (result.cancelled) return fail('CANCELLED', `${tool.name} was cancelled`);
      const data = {
        exitCode: result.exitCode,
        stdout: result.stdout,
        stderr: result.stderr,
        truncated: result.truncated,
      };
      if (result.exitCode !== 0)
        return fail(
          'EXECUTION_FAILED',
          `${tool.name} ${describeExit(result.exitCode, result.signal)}: ${result.stderr.slice(-2000) || result.stdout.slice(-2000)}`,
          { details: data },
        );
      return ok(result.stdout, data);
    },
  };
}
