import type { ToolSpec } from '@toolplane/core';
import { type Bm25Index, type SearchHit, createBm25Index } from './bm25.js';

/** Field weights of the tool index. */
export const TOOL_FIELD_WEIGHTS = { name: 3, summary: 2, parameters: 1, description: 1 } as const;

/** The first sentence or line of a description: what the tool does, without the details. */
function summaryOf(description: string): string {
  const end = description.search(/\n|\.\s|\s{2}/);
  return end < 0 ? description : description.slice(0, end);
}

function parameterNames(schema: unknown): string {
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties).join(' ') : '';
}

/**
 * A BM25 index over tools' names, summaries (the title, or the description's first sentence), descriptions and
 * parameter names.
 *
 * @example
 * createToolIndex(orchestrator.listTools()).search('open a pull request', 5);
 */
export function createToolIndex(specs: readonly ToolSpec[]): Bm25Index {
  return createBm25Index(
    specs.map((spec) => ({
      id: spec.name,
      fields: [
        { text: spec.name.replace(/__/g, ' '), weight: TOOL_FIELD_WEIGHTS.name },
        { text: spec.title ?? summaryOf(spec.description), weight: TOOL_FIELD_WEIGHTS.summary },
        { text: parameterNames(spec.inputSchema), weight: TOOL_FIELD_WEIGHTS.parameters },
        { text: spec.description, weight: TOOL_FIELD_WEIGHTS.description },
      ],
    })),
  );
}

export type { SearchHit };
