import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { context, failure, okText, useWorkspace } from '../helpers/index.js';

// notebook_edit on notebooks built to break it: JSON nested 100 000 deep, keys named like
// Object.prototype's members, ids that are not strings, 200 000 cells.

const ws = useWorkspace();
const call = (name: string, args: Record<string, unknown>) => ws.provider.execute(name, args, context());

/** Writes a notebook's text and reads it in the session (notebook_edit needs a fresh read). */
async function notebook(text: string, name = 'nb.ipynb'): Promise<string> {
  await writeFile(join(ws.dir, name), text);
  okText(await call('read', { path: name, limit: 5 }));
  return name;
}

const onDisk = (name: string) => readFile(join(ws.dir, name), 'utf8');

const cell = (extra: string, id?: string) =>
  `{"cell_type":"markdown",${id === undefined ? '' : `"id":${JSON.stringify(id)},`}"metadata":{${extra}},"source":["old"]}`;
const wrap = (cells: string[], top = '"nbformat":4,"nbformat_minor":5') =>
  `{"cells":[${cells.join(',')}],"metadata":{},${top}}`;

describe('notebook_edit on hostile notebooks', { timeout: 120_000 }, () => {
  it('keeps metadata keys named __proto__, constructor and toString as data, byte for byte', async () => {
    const keys = '"__proto__":{"polluted":true},"constructor":{"name":"x"},"toString":"s"';
    const text = `${JSON.stringify(JSON.parse(wrap([cell(keys, 'a'), cell('', 'b')])), null, 1)}\n`;
    const name = await notebook(text);
    okText(await call('notebook_edit', { path: name, cell_id: 'b', new_source: 'new' }));
    okText(await call('notebook_edit', { path: name, cell_id: 'a', new_source: 'x = 1', cell_type: 'code' }));
    const after = await onDisk(name);
    const metadata = JSON.parse(after).cells[0].metadata;
    expect(Object.keys(metadata)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getOwnPropertyDescriptor(metadata, '__proto__')?.value).toEqual({ polluted: true });
    expect(after).toContain(
      '"metadata": {\n    "__proto__": {\n     "polluted": true\n    },\n    "constructor": {\n     "name": "x"\n    },\n    "toString": "s"\n   },',
    );
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('finds cells whose ids are __proto__, constructor and toString, and no other', async () => {
    const name = await notebook(wrap([cell('', '__proto__'), cell('', 'constructor'), cell('', 'toString')]));
    okText(await call('notebook_edit', { path: name, cell_id: 'constructor', new_source: 'second' }));
    okText(await call('notebook_edit', { path: name, cell_id: '__proto__', edit_mode: 'delete' }));
    const missing = failure(
      await call('notebook_edit', { path: name, cell_id: 'hasOwnProperty', new_source: 'x' }),
    );
    expect(missing.code).toBe('INVALID_ARGUMENTS');
    expect(missing.message).toContain('cells: constructor, toString');
    const cells = JSON.parse(await onDisk(name)).cells;
    expect(cells.map((each: { id: string; source: string[] }) => [each.id, each.source])).toEqual([
      ['constructor', ['second']],
      ['toString', ['old']],
    ]);
  });

  it('refuses JSON nested 100 000 deep with INVALID_ARGUMENTS and leaves the file as it was', async () => {
    const deep = `"deep":${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const text = wrap([cell(deep, 'a'), cell('', 'b')]);
    const name = await notebook(text);
    const error = failure(await call('notebook_edit', { path: name, cell_id: 'b', new_source: 'x' }));
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message).toMatch(/nested too deeply/);
    expect(error.message).toContain('edit');
    expect(await onDisk(name)).toBe(text);
  });

  it('names cells whose ids are not strings by their index', async () => {
    const deepId = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const cells = [
      cell('').replace('{"cell_type"', `{"id":{"toString":1,"valueOf":1},"cell_type"`),
      cell('').replace('{"cell_type"', `{"id":${deepId},"cell_type"`),
      cell('', 'c'),
    ];
    const name = await notebook(wrap(cells));
    const missing = failure(await call('notebook_edit', { path: name, cell_id: 'x', new_source: 'y' }));
    expect(missing.code).toBe('INVALID_ARGUMENTS');
    expect(missing.message).toContain('cells: #0, #1, c');
    expect(okText(await call('notebook_edit', { path: name, cell_index: 1, edit_mode: 'delete' }))).toContain(
      'Deleted markdown cell #1',
    );
    expect(okText(await call('notebook_edit', { path: name, cell_index: 0, new_source: 'z' }))).toContain(
      'Replaced the source of markdown cell #0',
    );
  });

  it('inserts into a notebook whose nbformat is an object with hostile keys', async () => {
    const name = await notebook(
      wrap([cell('', 'a')], '"nbformat":{"toString":1,"valueOf":1},"nbformat_minor":{"valueOf":1}'),
    );
    const inserted = okText(
      await call('notebook_edit', {
        path: name,
        edit_mode: 'insert',
        cell_index: 1,
        cell_type: 'code',
        new_source: 'x',
      }),
    );
    expect(inserted).toContain('Inserted code cell at index 1');
    expect(JSON.parse(await onDisk(name)).cells[1]).toEqual({
      cell_type: 'code',
      metadata: {},
      source: ['x'],
      outputs: [],
      execution_count: null,
    });
  });

  it('edits the last of 200 000 cells and lists only the first 20 ids when one is missing', async () => {
    const cells = Array.from(
      { length: 200_000 },
      (_, index) => `{"cell_type":"raw","id":"c${index}","source":[]}`,
    );
    const name = await notebook(wrap(cells));
    const missing = failure(await call('notebook_edit', { path: name, cell_id: 'nope', new_source: 'x' }));
    expect(missing.message).toMatch(/cells: c0, c1, .*, c19 \(and 199980 more\)$/);
    okText(await call('notebook_edit', { path: name, cell_index: 199_999, new_source: 'last' }));
    const after = JSON.parse(await onDisk(name)).cells;
    expect(after.length).toBe(200_000);
    expect(after[199_999]).toEqual({ cell_type: 'raw', id: 'c199999', source: ['last'] });
  });
});
