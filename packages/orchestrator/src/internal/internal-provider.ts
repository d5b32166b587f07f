import { type ToolProvider, createLocalProvider } from '@toolplane/core';
import type { OutputStore } from '../output/output-store.js';
import { type BatchHost, createBatchTool } from './batch-tool.js';
import { createToolOutputTool } from '../output/tool-output-tool.js';

/** The orchestrator's own tools: `batch`, and `tool_output` when outputs are stored. */
export function createInternalProvider(options: {
  readonly namespace: string;
  readonly store: OutputStore | undefined;
  readonly maxBytes: number;
  readonly batch: BatchHost;
}): ToolProvider {
  const tools = [createBatchTool(options.batch)];
  if (options.store) tools.push(createToolOutputTool(options.store, options.maxBytes));
  return createLocalProvider({ namespace: options.namespace, kind: 'internal', prefixNames: false, tools });
}
