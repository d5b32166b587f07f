import { type Tool, ToolError, type ToolResult, defineTool, ok } from '@toolplane/core';
import { z } from 'zod';
import { recordKey, statTarget, writeWhole } from '../files/file-access.js';
import { formatBytes } from '../files/sniff.js';
import { assertStorableText } from '../files/text-codec.js';
import type { ToolDeps } from './deps.js';

const input = z.object({
  path: z.string().describe('File path, relative to the workspace'),
  content: z.string().describe('The complete new content of the file'),
});

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
        const data = Buffer.from(args.content, 'utf8');
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
