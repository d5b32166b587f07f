import { type ContentBlock, type ToolResult, contentText } from '@toolplane/core';

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** A note standing in for a block a text-only channel cannot carry. */
export function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${base64Bytes(block.data)} bytes, not shown]`;
    case 'resource':
      return block.resource.text ?? `[resource ${block.resource.uri}]`;
    case 'resource_link':
      return `[resource link ${block.uri}${block.name ? ` (${block.name})` : ''}]`;
  }
}

/** A result as text: the content's blocks, or `ERROR <code>: <message>` for a failure. */
export function resultText(result: ToolResult): string {
  if (!result.ok) {
    const printed = result.content && result.content.length > 0 ? `\n${contentText(result.content)}` : '';
    return `ERROR ${result.error.code}: ${result.error.message}${printed}`;
  }
  if (result.content.length === 0)
    return result.structured === undefined ? '' : JSON.stringify(result.structured);
  return result.content.map(describeBlock).join('\n');
}
