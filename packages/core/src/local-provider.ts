import type { ToolContext } from './context.js';
import { PROVIDER_SPEC_VERSION, type ProviderKind, type ToolProvider } from './provider.js';
import { type ToolResult, fail } from './result.js';
import type { ToolSpec } from './spec.js';
import type { Tool } from './tool.js';

/** Options of {@link createLocalProvider}. */
export interface LocalProviderOptions {
  readonly namespace: string;
  readonly tools: readonly Tool[];
  readonly kind?: ProviderKind;
  /** Public names `namespace__tool` (default) or the bare tool names. */
  readonly prefixNames?: boolean;
  readonly instructions?: string;
  /** Called by `close()`, for tools that hold resources. */
  readonly onClose?: () => Promise<void>;
}

/**
 * A provider over tools that run in this process.
 *
 * @example
 * const provider = createLocalProvider({ namespace: 'math', tools: [add] });
 */
export function createLocalProvider(options: LocalProviderOptions): ToolProvider {
  const byName = new Map<string, Tool>();
  for (const tool of options.tools) {
    if (byName.has(tool.spec.name)) {
      throw new Error(
        `createLocalProvider(${options.namespace}): two tools are named "${tool.spec.name}"; rename one`,
      );
    }
    byName.set(tool.spec.name, tool);
  }
  const specs: readonly ToolSpec[] = options.tools.map((tool) => tool.spec);
  return {
    specificationVersion: PROVIDER_SPEC_VERSION,
    kind: options.kind ?? 'local',
    namespace: options.namespace,
    prefixNames: options.prefixNames ?? true,
    listTools: () => specs,
    execute(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
      const tool = byName.get(name);
      if (!tool) return Promise.resolve(fail('TOOL_NOT_FOUND', `${options.namespace} has no tool "${name}"`));
      return tool.execute(args, ctx);
    },
    instructions: () => options.instructions,
    close: async () => {
      await options.onClose?.();
    },
  };
}
