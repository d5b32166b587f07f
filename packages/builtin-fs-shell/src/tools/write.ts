import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { type Tool, ToolError, type ToolResult, defineTool, ok } from '@toolplane/core';
import { z } from 'zod';
import { recordKey, statTarget, writeWhole } from '../files/file-access.js';
import { formatBytes } from '../files/sniff.js';
import { type TextEncoding, assertStorableText, encodeText } from '../files/text-codec.js';
import type { ResolvedTarget } from '../workspace/workspace.js';
import type { ToolDeps } from './deps.js';

const input = z.object({
  path: z.string().describe('File path, relative to the workspace'),
  content: z.string().describe('The complete new content of the file'),
});

/**
 * The encoding a byte order mark at the start of the existing file announces (UTF-16 LE or BE,
 * UTF-8 with a BOM), so a rewrite keeps it as `edit` does; undefined for other files.
 */
async function markedEncoding(target: ResolvedTarget): Promise<TextEncoding | undefined> {
  if (target.kind !== 'disk') return undefined;
  const handle = await open(
    target.path,
    constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
  ).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const head = Buffer.alloc(3);
    const { bytesRead } = await handle.read(head, 0, 3, 0);
    if (bytesRead === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf8-bom';
    if (bytesRead >= 2 && head[0] === 0xff && head[1] === 0xfe) return 'utf16le';
    if (bytesRead >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'utf16be';
    return undefined;
  } finally {
    await handle.close();
  }
}

/** The `write` tool. */
export function createWriteTool(deps: ToolDeps): Tool {
  return defineTool({
    name: 'write',
    title: 'Write file',
    description:
      'Create or overwrite a file with the given content (parent directories are created). An existing file must be read first.',
    input,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    sideEffect: 'mutating',
    groups: ['fs'],
    async execute(args, ctx): Promise<ToolResult> {
      if (args.path.endsWith('/'))
        throw new ToolError(
          'INVALID_ARGUMENTS',
          `path "${args.path}" ends with "/", which names a directory; pass the file path without it`,
        );
      assertStorableText(args.content, 'content');
      const target = await deps.workspace.resolve(args.path);
      deps.workspace.assertWritable(target);
      return deps.pathLocks.run(recordKey(target), async () => {
        const session = deps.sessions.get(ctx.session.id);
        const key = recordKey(target);
        const before = await statTarget(target);
        if (before?.type === 'directory') {
          return {
            ok: false,
            error: {
              code: 'INVALID_ARGUMENTS',
              message: `${target.display} is a directory; pass a file path`,
            },
          };
        }
        if (before?.type === 'other') {
          // A FIFO, socket or device: read refuses it, and replacing it would break whatever
          // uses it (a server's socket) while writing through it could block or reach a device.
          return {
            ok: false,
            error: {
              code: 'INVALID_ARGUMENTS',
              message: `${target.display} is not a regular file (a FIFO, socket or device); write only creates and replaces files: pass another path, or remove it with bash first`,
            },
          };
        }
        session.reads.assertFresh(key, target.display, before);
        const marked = before ? await markedEncoding(target) : undefined;
        // A content that starts with the mark itself gets one mark, not two.
        const data = marked
          ? encodeText(args.content.replace(/^\ufeff/, ''), marked)
          : Buffer.from(args.content, 'utf8');
        await writeWhole(deps.workspace, target, data, before, ctx.signal);
        const after = await statTarget(target);
        if (after) session.reads.remember(key, after);
        const verb = before ? 'Overwrote' : 'Created';
        return ok(`${verb} ${target.display} (${formatBytes(data.length)})`, {
          path: target.display,
          created: !before,
          bytes: data.length,
        });
      });
    },
  });
}
