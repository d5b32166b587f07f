import type { ContentBlock } from '@toolplane/core';

type Raw = Record<string, unknown>;

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Maps one MCP content item (text, image, audio, resource, resource_link) to a core content
 * block. An unknown type becomes a text block that says what arrived, so nothing is dropped silently.
 */
export function toContentBlock(item: unknown): ContentBlock {
  const raw = (typeof item === 'object' && item !== null ? item : {}) as Raw;
  switch (raw.type) {
    case 'text':
      return { type: 'text', text: text(raw.text) ?? '' };
    case 'image':
    case 'audio':
      return {
        type: raw.type,
        data: text(raw.data) ?? '',
        mimeType: text(raw.mimeType) ?? 'application/octet-stream',
      };
    case 'resource': {
      const resource = (typeof raw.resource === 'object' && raw.resource !== null ? raw.resource : {}) as Raw;
      return {
        type: 'resource',
        resource: {
          uri: text(resource.uri) ?? '',
          ...(text(resource.mimeType) === undefined ? {} : { mimeType: text(resource.mimeType) }),
          ...(text(resource.text) === undefined ? {} : { text: text(resource.text) }),
          ...(text(resource.blob) === undefined ? {} : { blob: text(resource.blob) }),
        },
      };
    }
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: text(raw.uri) ?? '',
        ...(text(raw.name) === undefined ? {} : { name: text(raw.name) }),
        ...(text(raw.title) === undefined ? {} : { title: text(raw.title) }),
        ...(text(raw.description) === undefined ? {} : { description: text(raw.description) }),
        ...(text(raw.mimeType) === undefined ? {} : { mimeType: text(raw.mimeType) }),
        ...(typeof raw.size === 'number' ? { size: raw.size } : {}),
      };
    default:
      return { type: 'text', text: `[unsupported MCP content type ${JSON.stringify(raw.type)}]` };
  }
}

/** Maps an MCP `content` array; anything else gives no blocks. */
export function toContentBlocks(content: unknown): ContentBlock[] {
  return Array.isArray(content) ? content.map(toContentBlock) : [];
}
