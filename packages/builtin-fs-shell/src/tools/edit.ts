import { type Tool, ToolError, type ToolResult, defineTool, ok } from '@toolplane/core';
import { z } from 'zod';
import { describeNearest, lineOf } from '../files/candidates.js';
import { readWhole, recordKey, statTarget, writeWhole } from '../files/file-access.js';
import { assertStorableText, decodeText, encodeText, fitsEncoding } from '../files/text-codec.js';
import type { ToolDeps } from './deps.js';

/**
 * Most edits in one call. Each edit scans the whole text (up to `editMaxBytes`, 10 MiB): a
 * thousand of them on a large file took 20 s.
 */
export const MAX_EDITS = 200;

/** Text longer than this lets other calls run between two of its edits. */
const YIELD_ABOVE_CHARS = 1024 * 1024;

// Strict: a misspelt key in an edit (`replaceAll`) would otherwise be dropped and the edit run without it.
const replacement = z.strictObject({
  old_string: z.string().describe('Exact text to find (copied from read output, without line numbers)'),
  new_string: z.string().describe('Text to put in its place'),
  replace_all: z.boolean().optional().describe('Replace every occurrence (default: it must be unique)'),
});

const input = z
  .object({
    path: z.string().describe('File path, relative to the workspace'),
    old_string: z.string().optional().describe('Exact text to find (for a single edit)'),
    new_string: z.string().optional().describe('Replacement text (for a single edit)'),
    replace_all: z.boolean().optional().describe('Replace every occurrence of old_string'),
    edits: z
      .array(replacement)
      .min(1)
      .max(MAX_EDITS, `at most ${MAX_EDITS} edits in one call; split them over several calls`)
      .optional()
      .describe('Several edits, applied in order, all or none'),
  })
  .refine((value) => (value.edits !== undefined) !== (value.old_string !== undefined), {
    message: 'pass either old_string/new_string or edits, not both and not neither',
  })
  .refine(
    (value) =>
      value.edits === undefined || (value.new_string === undefined && value.replace_all === undefined),
    {
      message: 'with edits, put new_string and replace_all inside each edit, not beside the list',
      path: ['edits'],
    },
  )
  .refine((value) => value.old_string === undefined || value.new_string !== undefined, {
    message: 'new_string is required with old_string',
    path: ['new_string'],
  });

type Replacement = z.output<typeof replacement>;

/** Where an old_string was found: start and length (a line break may be CRLF or LF there). */
interface Match {
  readonly index: number;
  readonly length: number;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A finder of `oldString` in the text. `read` shows lines without their carriage returns, so an
 * old_string without `\r` matches whatever line break the file has at each of its `\n` (a file
 * may mix them); one with a `\r` was copied with its line endings and is matched exactly.
 */
function finder(oldString: string): RegExp {
  const pattern = oldString.includes('\r')
    ? escapeRegExp(oldString)
    : oldString.split('\n').map(escapeRegExp).join('\r?\n');
  return new RegExp(pattern, 'g');
}

/** Non-overlapping matches, left to right. */
function matchesOf(text: string, find: RegExp): Match[] {
  const found: Match[] = [];
  find.lastIndex = 0;
  for (let match = find.exec(text); match !== null; match = find.exec(text)) {
    found.push({ index: match.index, length: match[0].length });
  }
  return found;
}

/** A match that starts inside `first` (the text overlaps itself there: `aa` in `aaa`). */
function overlapping(text: string, find: RegExp, first: Match): Match | undefined {
  find.lastIndex = first.index + 1;
  const next = find.exec(text);
  return next !== null && next.index < first.index + first.length
    ? { index: next.index, length: next[0].length }
    : undefined;
}

/**
 * The line break new text takes where it replaces `match`: the one the replaced text uses when
 * it uses one kind, else the one ending the line the match ends on, else the file's usual one.
 */
function lineBreakAt(text: string, match: Match, usual: '\n' | '\r\n'): '\n' | '\r\n' {
  const replaced = text.slice(match.index, match.index + match.length);
  const breaks = replaced.split('\n').length - 1;
  const crlf = replaced.split('\r\n').length - 1;
  if (breaks > 0) return crlf === breaks ? '\r\n' : crlf === 0 ? '\n' : usual;
  const end = text.indexOf('\n', match.index + match.length);
  if (end === -1) return usual;
  return text[end - 1] === '\r' ? '\r\n' : '\n';
}

function applyOne(
  text: string,
  edit: Replacement,
  eol: '\n' | '\r\n',
  number: number,
  total: number,
  display: string,
): { text: string; count: number } {
  const label = total > 1 ? `edit ${number} of ${total}: ` : '';
  if (edit.old_string === '') {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `${label}old_string is empty; to create or replace a whole file use write`,
    );
  }
  if (edit.old_string === edit.new_string) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `${label}old_string and new_string are identical; nothing would change`,
    );
  }
  const find = finder(edit.old_string);
  const found = matchesOf(text, find);
  if (found.length === 0) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `${label}old_string was not found in ${display}; ${describeNearest(text.replaceAll('\r\n', '\n'), edit.old_string)}`,
    );
  }
  if (found.length > 1 && edit.replace_all !== true) {
    const lines = found.slice(0, 10).map((match) => lineOf(text, match.index));
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `${label}old_string occurs ${found.length} times in ${display} (lines ${lines.join(', ')}${found.length > 10 ? ', ...' : ''}); add surrounding lines to make it unique, or pass replace_all: true`,
    );
  }
  const first = found[0] as Match;
  const overlap = edit.replace_all === true ? undefined : overlapping(text, find, first);
  if (overlap) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `${label}old_string occurs twice in ${display} at overlapping places (line ${lineOf(text, first.index)}, characters ${first.index} and ${overlap.index}), so which one to replace is unclear; add the text around the one you mean`,
    );
  }
  // Copied with its carriage returns: written as given. Otherwise the new lines take the
  // line break of the text they replace.
  const literal = edit.old_string.includes('\r');
  const bare = literal ? edit.new_string : edit.new_string.replaceAll('\r\n', '\n');
  const parts: string[] = [];
  let from = 0;
  for (const match of found) {
    const lineBreak = literal ? '\n' : lineBreakAt(text, match, eol);
    parts.push(text.slice(from, match.index), lineBreak === '\n' ? bare : bare.replaceAll('\n', '\r\n'));
    from = match.index + match.length;
  }
  parts.push(text.slice(from));
  return { text: parts.join(''), count: found.length };
}

/** The `edit` tool. */
export function createEditTool(deps: ToolDeps): Tool {
  return defineTool({
    name: 'edit',
    title: 'Edit file',
    description:
      'Replace exact text in a file (unique unless replace_all; several edits in one call, all or none). Read the file first; line endings and encoding are kept.',
    input,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    sideEffect: 'mutating',
    groups: ['fs'],
    async execute(args, ctx): Promise<ToolResult> {
      const target = await deps.workspace.resolve(args.path);
      deps.workspace.assertWritable(target);
      return deps.pathLocks.run(recordKey(target), async () => {
        const session = deps.sessions.get(ctx.session.id);
        const key = recordKey(target);
        const before = await statTarget(target);
        if (!before)
          throw new ToolError(
            'INVALID_ARGUMENTS',
            `${target.display} does not exist; use write to create it`,
          );
        if (before.type !== 'file')
          throw new ToolError('INVALID_ARGUMENTS', `${target.display} is not a file`);
        session.reads.assertFresh(key, target.display, before);
        const bytes = await readWhole(deps.workspace, target, deps.limits.editMaxBytes, ctx.signal);
        const decoded = decodeText(bytes);
        const edits: Replacement[] = args.edits ?? [
          {
            old_string: args.old_string as string,
            new_string: args.new_string as string,
            replace_all: args.replace_all,
          },
        ];
        let text = decoded.text;
        let replaced = 0;
        for (const [i, edit] of edits.entries()) {
          // Each edit of a large file takes milliseconds: the event loop is not held for all.
          if (i > 0 && text.length > YIELD_ABOVE_CHARS) {
            await new Promise((resolve) => setImmediate(resolve));
            if (ctx.signal.aborted) throw ctx.signal.reason;
          }
          const applied = applyOne(text, edit, decoded.eol, i + 1, edits.length, target.display);
          text = applied.text;
          replaced += applied.count;
        }
        if (!fitsEncoding(text, decoded.encoding)) {
          if (decoded.encoding !== 'latin1') assertStorableText(text, 'new_string');
          throw new ToolError(
            'INVALID_ARGUMENTS',
            `${target.display} is Latin-1 encoded and the new text has characters Latin-1 cannot hold; use only those characters`,
          );
        }
        await writeWhole(deps.workspace, target, encodeText(text, decoded.encoding), before, ctx.signal);
        const after = await statTarget(target);
        if (after) session.reads.remember(key, after);
        return ok(
          `Edited ${target.display}: ${replaced} replacement${replaced === 1 ? '' : 's'} in ${edits.length} edit${edits.length === 1 ? '' : 's'}`,
          {
            path: target.display,
            replacements: replaced,
          },
        );
      });
    },
  });
}
