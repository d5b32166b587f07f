import {
  type JsonSchema,
  PROVIDER_SPEC_VERSION,
  type ToolContext,
  type ToolProvider,
  type ToolResult,
  type ToolSpec,
  fail,
  ok,
} from '@toolplane/core';
import type { ToolsOrchestrator } from '@toolplane/orchestrator';
import type { Bm25Index } from './bm25.js';
import { createToolIndex } from './tool-index.js';

/** The name of the search tool. */
export const TOOL_SEARCH_NAME = 'tool_search';

/** Options of {@link createToolSearchProvider}. */
export interface ToolSearchOptions {
  /** The orchestrator whose tools are searched (as the calling principal may see them). */
  readonly orchestrator: Pick<ToolsOrchestrator, 'listTools'>;
  /** Tools returned by default (5) and at most (20). */
  readonly defaultResults?: number;
  readonly maxResults?: number;
  /** Tools never returned (the search tool itself and `batch`/`tool_output` always are left out). */
  readonly exclude?: readonly string[];
}

/** A tool definition as `tool_search` returns it. */
export interface FoundTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

const ALWAYS_EXCLUDED = [TOOL_SEARCH_NAME, 'batch', 'tool_output'];

const SEARCH_SPEC: ToolSpec = {
  name: TOOL_SEARCH_NAME,
  description:
    'Finds tools by what they do. Give a few words (for example "create a GitHub issue"); answers the full definitions of the best matching tools, which you can then call.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, description: 'What the tool should do, in a few words.' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: 20,
        description: 'How many tools to return (default 5).',
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  sideEffect: 'none',
  annotations: { readOnlyHint: true },
};

/**
 * The `tool_search` internal tool: BM25 over names, descriptions and parameter names of the
 * tools the caller's principal may see (the orchestrator's filtered listing), answering the
 * matches' full definitions. Register it, and hand the model only `tool_search` and a few
 * tools at first; add the tools it finds.
 *
 * @example
 * orchestrator.register(createToolSearchProvider({ orchestrator }));
 */
export function createToolSearchProvider(options: ToolSearchOptions): ToolProvider {
  const defaultResults = options.defaultResults ?? 5;
  const maxResults = options.maxResults ?? 20;
  const excluded = new Set([...ALWAYS_EXCLUDED, ...(options.exclude ?? [])]);
  // one index per tool list the orchestrator answers: its lists are frozen and reused until a change
  const indexes = new WeakMap<readonly ToolSpec[], { index: Bm25Index; byName: Map<string, ToolSpec> }>();
  const indexFor = (specs: readonly ToolSpec[]) => {
    let entry = indexes.get(specs);
    if (!entry) {
      const visible = specs.filter((s) => !excluded.has(s.name));
      entry = { index: createToolIndex(visible), byName: new Map(visible.map((s) => [s.name, s])) };
      indexes.set(specs, entry);
    }
    return entry;
  };
  return {
    specificationVersion: PROVIDER_SPEC_VERSION,
    kind: 'internal',
    namespace: 'tool_search',
    prefixNames: false,
    listTools: () => [SEARCH_SPEC],
    async execute(_name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
      const query = args.query;
      if (typeof query !== 'string' || query.trim() === '')
        return fail('INVALID_ARGUMENTS', 'query must be a few words describing the tool you need');
      const limit = Math.min(
        maxResults,
        typeof args.limit === 'number' ? Math.max(1, Math.floor(args.limit)) : defaultResults,
      );
      const { index, byName } = indexFor(
        options.orchestrator.listTools({ principal: ctx.principal, session: ctx.session }),
      );
      const hits = index.search(query, limit);
      const tools: FoundTool[] = hits.map((hit) => {
        const spec = byName.get(hit.id) as ToolSpec;
        return { name: spec.name, description: spec.description, inputSchema: spec.inputSchema };
      });
      if (tools.length === 0)
        return ok(`No tool matches ${JSON.stringify(query)} among ${index.size} tools: try other words.`, {
          tools,
        });
      return ok(JSON.stringify(tools), { tools });
    },
  };
}

/** The tool names a `tool_search` result found (to add them to the model's tool list). */
export function foundToolNames(result: ToolResult): string[] {
  if (!result.ok) return [];
  const tools = (result.structured as { tools?: unknown } | undefined)?.tools;
  return Array.isArray(tools) ? tools.map((t) => String((t as FoundTool).name)) : [];
}
