import { type ToolResult, contentText } from '@toolplane/core';

/** What the model reads of a tool result: its text, or `CODE: message` for a failure. */
export function resultText(result: ToolResult): string {
  if (result.ok) {
    const text = contentText(result.content);
    if (text !== '' || result.structured === undefined) return text;
    return JSON.stringify(result.structured);
  }
  const output = result.content ? contentText(result.content) : '';
  return `${result.error.code}: ${result.error.message}${output ? `\n${output}` : ''}`;
}
