import { randomBytes } from 'node:crypto';
import { type Tool, ToolError, type ToolResult, defineTool, ok } from '@toolplane/core';
import { z } from 'zod';
import { readWhole, recordKey, statTarget, writeWhole } from '../files/file-access.js';
import { assertStorableText } from '../files/text-codec.js';
import type { ToolDeps } from './deps.js';

const input = z.object({
  path: z.string().describe('Path of a .ipynb notebook, relative to the workspace'),
  edit_mode: z.enum(['replace', 'insert', 'delete']).optional().describe('What to do (default replace)'),
  cell_id: z.string().optional().describe('Id of the cell to change; insert puts the new cell after it'),
  cell_index: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('0-based index of the cell (when cells have no ids); insert puts the new cell there'),
  new_source: z.string().optional().describe('New source of the cell (replace, insert)'),
  cell_type: z.enum(['code', 'markdown', 'raw']).optional().describe('Cell type (required for insert)'),
});

interface Cell {
  cell_type: string;
  id?: string;
  metadata: Record<string, unknown>;
  source: string | string[];
  outputs?: unknown[];
  execution_count?: number | null;
  [key: string]: unknown;
}

interface Notebook {
  cells: Cell[];
  nbformat?: number;
  nbformat_minor?: number;
  [key: string]: unknown;
}

function sourceLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  return lines.map((line, i) => (i < lines.length - 1 ? `${line}\n` : line)).filter((line) => line !== '');
}

function withType(cell: Cell, type: string): Cell {
  const next: Cell = { ...cell, cell_type: type };
  if (type === 'code') {
    next.outputs = [];
    next.execution_count = null;
  } else {
    delete next.outputs;
    delete next.execution_count;
  }
  return next;
}

function parseNotebook(bytes: Uint8Array, display: string): { notebook: Notebook; indent: number } {
  const text = Buffer.from(bytes).toString('utf8');
  let notebook: Notebook;
  try {
    notebook = JSON.parse(text) as Notebook;
  } catch (error) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `${display} is not valid JSON (${(error as Error).message}); it cannot be edited as a notebook`,
    );
  }
  if (typeof notebook !== 'object' || notebook === null || !Array.isArray(notebook.cells)) {
    throw new ToolError('INVALID_ARGUMENTS', `${display} has no "cells" array; is it a Jupyter notebook?`);
  }
  const cellAt = notebook.cells.findIndex(
    (cell: unknown) =>
      typeof cell !== 'object' ||
      cell === null ||
      Array.isArray(cell) ||
      typeof (cell as { cell_type?: unknown }).cell_type !== 'string',
  );
  if (cellAt !== -1) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `${display} is not a valid notebook: cell ${cellAt} is not an object with a "cell_type"; repair the file with edit or write`,
    );
  }
  const indent = /^\{\r?\n( +)"/.exec(text)?.[1]?.length ?? 1;
  return { notebook, indent };
}

/**
 * How a cell is named in messages: its id, or `#index` when it has none. nbformat ids are
 * strings; anything else (an object whose `toString` is not a function, an array nested
 * 100 000 deep) would throw when put in a message, so it counts as no id.
 */
function shownId(cell: Cell | undefined, index: number): string {
  return typeof cell?.id === 'string' ? cell.id : `#${index}`;
}

/** Cells named in a message about a missing id, at most. */
const LISTED_IDS = 20;

/** The notebook as text, in the indentation it had. */
function serialize(notebook: Notebook, indent: number, display: string): Buffer {
  try {
    return Buffer.from(`${JSON.stringify(notebook, null, indent)}\n`, 'utf8');
  } catch (error) {
    // JSON.parse reads any depth, JSON.stringify recurses: past a few thousand levels it runs
    // out of stack (or the indented text out of string length).
    if (error instanceof RangeError)
      throw new ToolError(
        'INVALID_ARGUMENTS',
        `${display} is nested too deeply (or too large) for notebook_edit to write it back (${error.message}); nothing was changed: edit its text with edit instead`,
      );
    throw error;
  }
}

/** The `notebook_edit` tool. */
export function createNotebookEditTool(deps: ToolDeps): Tool {
  return defineTool({
    name: 'notebook_edit',
    title: 'Edit Jupyter notebook',
    description:
      'Replace, insert or delete a cell of a Jupyter notebook (.ipynb) by cell id or index. Read the notebook first.',
    input,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    sideEffect: 'mutating',
    groups: ['fs', 'notebook'],
    async execute(args, ctx): Promise<ToolResult> {
      if (!args.path.endsWith('.ipynb'))
        throw new ToolError(
          'INVALID_ARGUMENTS',
          `${args.path} is not a .ipynb file; use edit for other files`,
        );
      if (args.new_source !== undefined) assertStorableText(args.new_source, 'new_source');
      const mode = args.edit_mode ?? 'replace';
      if (mode !== 'delete' && args.new_source === undefined)
        throw new ToolError('INVALID_ARGUMENTS', `new_source is required for ${mode}`);
      if (mode === 'insert' && args.cell_type === undefined)
        throw new ToolError('INVALID_ARGUMENTS', 'cell_type is required for insert (code, markdown or raw)');
      const target = await deps.workspace.resolve(args.path);
      deps.workspace.assertWritable(target);
      return deps.pathLocks.run(recordKey(target), async () => {
        const before = await statTarget(target);
        if (!before)
          throw new ToolError('INVALID_ARGUMENTS', `${target.display} does not exist; create it with write`);
        const session = deps.sessions.get(ctx.session.id);
        const key = recordKey(target);
        session.reads.assertFresh(key, target.display, before);
        const { notebook, indent } = parseNotebook(
          await readWhole(deps.workspace, target, deps.limits.editMaxBytes, ctx.signal),
          target.display,
        );
        const cells = notebook.cells;
        let index: number | undefined;
        if (args.cell_id !== undefined) {
          index = cells.findIndex((cell) => cell.id === args.cell_id);
          if (index === -1) {
            const ids = cells.slice(0, LISTED_IDS).map((cell, i) => shownId(cell, i));
            const more = cells.length > LISTED_IDS ? ` (and ${cells.length - LISTED_IDS} more)` : '';
            throw new ToolError(
              'INVALID_ARGUMENTS',
              `no cell with id "${args.cell_id}" in ${target.display}; cells: ${ids.join(', ')}${more}`,
            );
          }
          if (args.cell_index !== undefined && args.cell_index !== index) {
            throw new ToolError(
              'INVALID_ARGUMENTS',
              `cell_id "${args.cell_id}" is cell ${index} but cell_index is ${args.cell_index}; pass only one of them`,
            );
          }
        } else if (args.cell_index !== undefined) {
          index = args.cell_index;
          const max = mode === 'insert' ? cells.length : cells.length - 1;
          if (index > max)
            throw new ToolError(
              'INVALID_ARGUMENTS',
              `cell_index ${index} is out of range; ${target.display} has ${cells.length} cells`,
            );
        } else if (mode !== 'insert') {
          throw new ToolError('INVALID_ARGUMENTS', 'pass cell_id or cell_index to say which cell');
        }
        let summary: string;
        if (mode === 'delete') {
          const [removed] = cells.splice(index as number, 1);
          summary = `Deleted ${removed?.cell_type ?? ''} cell ${shownId(removed, index as number)}`;
        } else if (mode === 'insert') {
          const position = args.cell_id !== undefined ? (index as number) + 1 : (index ?? cells.length);
          // Versions that are not numbers (hostile objects among them) count as absent.
          const major = typeof notebook.nbformat === 'number' ? notebook.nbformat : 4;
          const minor = typeof notebook.nbformat_minor === 'number' ? notebook.nbformat_minor : 0;
          const hasIds = major > 4 || (major === 4 && minor >= 5);
          let cell: Cell = {
            cell_type: 'markdown',
            metadata: {},
            source: sourceLines(args.new_source as string),
          };
          if (hasIds) cell.id = randomBytes(4).toString('hex');
          cell = withType(cell, args.cell_type as string);
          cells.splice(position, 0, cell);
          summary = `Inserted ${cell.cell_type} cell${cell.id ? ` ${cell.id}` : ''} at index ${position}`;
        } else {
          const existing = cells[index as number] as Cell;
          let cell: Cell = { ...existing, source: sourceLines(args.new_source as string) };
          if (args.cell_type !== undefined && args.cell_type !== existing.cell_type)
            cell = withType(cell, args.cell_type);
          else if (cell.cell_type === 'code') cell = withType(cell, 'code');
          cells[index as number] = cell;
          summary = `Replaced the source of ${cell.cell_type} cell ${shownId(cell, index as number)}`;
        }
        await writeWhole(
          deps.workspace,
          target,
          serialize(notebook, indent, target.display),
          before,
          ctx.signal,
        );
        const after = await statTarget(target);
        if (after) session.reads.remember(key, after);
        return ok(`${summary} in ${target.display} (${cells.length} cells)`, {
          path: target.display,
          cells: cells.length,
        });
      });
    },
  });
}
