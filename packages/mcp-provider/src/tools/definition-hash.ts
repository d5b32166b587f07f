import { createHash } from 'node:crypto';
import { stableStringify } from '@toolplane/core';
import type { McpToolDefinition } from '../session/session.js';

/**
 * The hex SHA-256 of a tool's definition as its server reports it (original name, description,
 * input and output schema), so a policy can pin it and notice when it changes.
 */
export function definitionHash(tool: McpToolDefinition): string {
  return createHash('sha256')
    .update(
      stableStringify({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
      }),
    )
    .digest('hex');
}
