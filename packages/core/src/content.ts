/** Text for the model. */
export interface TextContent {
  readonly type: 'text';
  readonly text: string;
}

/** An image, base64-encoded. */
export interface ImageContent {
  readonly type: 'image';
  readonly data: string;
  readonly mimeType: string;
}

/** Audio, base64-encoded. */
export interface AudioContent {
  readonly type: 'audio';
  readonly data: string;
  readonly mimeType: string;
}

/** An embedded resource: text or a base64 blob, addressed by URI (MCP's `resource`). */
export interface ResourceContent {
  readonly type: 'resource';
  readonly resource: {
    readonly uri: string;
    readonly mimeType?: string;
    readonly text?: string;
    readonly blob?: string;
  };
}

/** A link to a resource the model may read later (MCP's `resource_link`). */
export interface ResourceLinkContent {
  readonly type: 'resource_link';
  readonly uri: string;
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
}

/** One block of a tool result; the union mirrors MCP content so providers map one to one. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceContent | ResourceLinkContent;

/** A text block. */
export function textContent(text: string): TextContent {
  return { type: 'text', text };
}

/** Concatenated text of all text blocks (and text resources), separated by newlines. */
export function contentText(content: readonly ContentBlock[]): string {
  if (content.length === 1 && content[0]?.type === 'text') return content[0].text;
  const parts: string[] = [];
  for (const block of content) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'resource' && block.resource.text !== undefined) parts.push(block.resource.text);
  }
  return parts.join('\n');
}

/** Approximate size in bytes of content as it would be sent to a model (UTF-8 of text, base64 as is). */
export function contentBytes(content: readonly ContentBlock[]): number {
  let total = 0;
  for (const block of content) {
    switch (block.type) {
      case 'text':
        total += utf8Length(block.text);
        break;
      case 'image':
      case 'audio':
        total += block.data.length;
        break;
      case 'resource':
        total += utf8Length(block.resource.text ?? '') + (block.resource.blob?.length ?? 0);
        break;
      case 'resource_link':
        total += block.uri.length;
        break;
    }
  }
  return total;
}

/** UTF-8 byte length of a string without allocating a buffer. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
