import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ok } from '@toolplane/core';
import { createOrchestrator } from '../../src/index.js';
import { codeOf, delay, endedAfterEach, messageOf, testProvider } from '../helpers.js';

// tool_output's JSONPath mode parses the whole stored output (up to maxStoredBytes, 256 MiB by
// default): on the orchestrator's thread every other call, and the call's own deadline, would
// wait for seconds. JSONPath queries and greps run in a small pool of workers instead.

const { track } = endedAfterEach();

// About 3 MiB of JSON: parsing it and walking it with `..` holds a thread for a few hundred
// milliseconds, long past the 20 ms the checks below race against, and keeps this file quick.
const rowCount = 50_000;
const big = JSON.stringify({
  rows: Array.from({ length: rowCount }, (_, id) => ({ id, name: `row ${id}`, tags: ['a', 'b'], at: 1.5 })),
});

function withJson() {
  const local = track(
    createOrchestrator({ output: { maxBytes: 4096, maxStoredBytes: 64 * 1024 * 1024 }, timeoutMs: 120_000 }),
  );
  local.register(
    testProvider('p', {
      json: { run: () => ok(big) },
      lines: { run: () => ok(Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n')) },
      tick: {
        spec: { sideEffect: 'none' },
        run: async () => {
          await delay(20);
          return ok('tick');
        },
      },
    }),
  );
  return local;
}

async function handleOf(local: ReturnType<typeof withJson>, tool: string): Promise<string> {
  const result = await local.call(tool, {});
  const handle = result.meta?.truncated?.handle;
  expect(handle).toMatch(/^out_/);
  return handle as string;
}

describe('tool_output jsonpath over a large stored output', () => {
  it('runs off the orchestrator thread: a call made meanwhile answers first, and the query answers right', async () => {
    const local = withJson();
    const handle = await handleOf(local, 'p__json');
    const order: string[] = [];
    const query = local
      .call('tool_output', { handle, mode: 'jsonpath', path: `$..rows[${rowCount - 1}].name` })
      .then((result) => {
        order.push(`jsonpath ${codeOf(result)}`);
        return result;
      });
    const tick = local.call('p__tick', {}).then((result) => order.push(`tick ${codeOf(result)}`));
    const [result] = await Promise.all([query, tick]);
    expect(order).toEqual(['tick OK', 'jsonpath OK']);
    expect(result.ok && result.content[0]).toEqual({ type: 'text', text: `[\n  "row ${rowCount - 1}"\n]` });
  }, 120_000);

  it('ends TIMEOUT at its deadline, without waiting for the parse', async () => {
    const local = withJson();
    const handle = await handleOf(local, 'p__json');
    const result = await local.call(
      'tool_output',
      { handle, mode: 'jsonpath', path: '$..id' },
      { timeoutMs: 20 },
    );
    expect(codeOf(result)).toBe('TIMEOUT');
    // the pool replaced the terminated worker: the next query answers
    const next = await local.call('tool_output', { handle, mode: 'jsonpath', path: '$.rows[1].id' });
    expect(next.ok && next.content[0]).toEqual({ type: 'text', text: '[\n  1\n]' });
  }, 120_000);

  it('cuts an answer larger than the size cap, saying so', async () => {
    const local = withJson();
    const handle = await handleOf(local, 'p__json');
    const result = await local.call('tool_output', { handle, mode: 'jsonpath', path: '$.rows[*].name' });
    const text = result.ok && result.content[0]?.type === 'text' ? result.content[0].text : '';
    expect(text.slice(0, 40)).toBe('[\n  "row 0",\n  "row 1",\n  "row 2",\n  "ro');
    expect(text).toMatch(/\n\[truncated[^\n]*: ask for a smaller slice\]$/);
    expect(Buffer.byteLength(text)).toBeLessThan(4096 + 100);
  }, 120_000);
});

describe('tool_output workers are pooled', () => {
  it('answers many greps, several at once, each with its own answer', async () => {
    const local = withJson();
    const handle = await handleOf(local, 'p__lines');
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          local.call('tool_output', { handle, mode: 'grep', pattern: `^line ${i * 50 + round}$` }),
        ),
      );
      expect(
        results.map((result) =>
          result.ok && result.content[0]?.type === 'text' ? result.content[0].text : '',
        ),
      ).toEqual(
        Array.from(
          { length: 5 },
          (_, i) => `[1 matching line of 1000 lines]\n${i * 50 + round + 1}:line ${i * 50 + round}`,
        ),
      );
    }
    const notJson = await local.call('tool_output', { handle, mode: 'jsonpath', path: '$.a' });
    expect(!notJson.ok && notJson.error.message).toContain('this output is not JSON');
  }, 60_000);
});

describe('tool_output expressions are bounded', () => {
  it.each([
    ['jsonpath', 'path', `$${'.a'.repeat(50_000)}`],
    ['grep', 'pattern', '[a-z]'.repeat(20_000)],
  ])(
    'a %s expression over 2000 characters is INVALID_ARGUMENTS (a long path takes minutes to parse)',
    async (mode, field, expression) => {
      const local = withJson();
      const handle = await handleOf(local, 'p__lines');
      const result = await local.call('tool_output', { handle, mode, [field]: expression });
      expect(codeOf(result)).toBe('INVALID_ARGUMENTS');
      expect(!result.ok && result.error.message).toContain(
        `args.${field}: must NOT have more than 2000 characters`,
      );
    },
    60_000,
  );
});

describe('tool_output workers are bounded', () => {
  it('runs at most 4 jobs at once: a fifth waits its turn (a burst of 256 MiB parses would take the memory)', async () => {
    const local = track(createOrchestrator({ output: { maxBytes: 1024 } }));
    const evil = `${'a'.repeat(40)}!`;
    local.register(
      testProvider('p', {
        big: {
          run: () => ok(Array.from({ length: 200 }, (_, i) => (i % 2 ? evil : `line ${i}`)).join('\n')),
        },
      }),
    );
    const handle = (await local.call('p__big', {})).meta?.truncated?.handle as string;
    const order: string[] = [];
    const stuck = Array.from({ length: 4 }, () =>
      local
        .call('tool_output', { handle, mode: 'grep', pattern: '(a+)+$' }, { timeoutMs: 1500 })
        .then((result) => order.push(`stuck ${codeOf(result)}`)),
    );
    await delay(100);
    const plain = local
      .call('tool_output', { handle, mode: 'grep', pattern: '^line 10$' })
      .then((result) => order.push(`plain ${codeOf(result)}`));
    await Promise.all([...stuck, plain]);
    expect(order.slice(0, 4)).toEqual(['stuck TIMEOUT', 'stuck TIMEOUT', 'stuck TIMEOUT', 'stuck TIMEOUT']);
    expect(order[4]).toBe('plain OK');
  }, 60_000);

  it('a stored file that cannot be read is EXECUTION_FAILED saying why, not "not JSON"', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolplane-gone-'));
    const local = track(createOrchestrator({ output: { maxBytes: 1024, dir } }));
    local.register(
      testProvider('p', { json: { run: () => ok(JSON.stringify({ rows: 'x'.repeat(5000) })) } }),
    );
    const handle = (await local.call('p__json', {})).meta?.truncated?.handle as string;
    for (const name of await readdir(dir)) await rm(join(dir, name));
    const result = await local.call('tool_output', { handle, mode: 'jsonpath', path: '$.rows' });
    expect(codeOf(result)).toBe('EXECUTION_FAILED');
    expect(!result.ok && result.error.message).toContain('ENOENT');
    await rm(dir, { recursive: true, force: true });
  });
});

describe('tool_output paths it cannot run', () => {
  it('a JSONPath filter is INVALID_ARGUMENTS pointing at plain paths', async () => {
    const orchestrator = track(createOrchestrator({ output: { maxBytes: 1024 } }));
    const items = Array.from({ length: 200 }, (_, id) => ({ id, name: `item ${id}` }));
    orchestrator.register(testProvider('t', { list: { run: () => ok(JSON.stringify({ items })) } }));
    const listed = await orchestrator.call('t__list', {});
    const handle = listed.meta?.truncated?.handle as string;
    expect(handle).toMatch(/^out_/);
    const filtered = await orchestrator.call('tool_output', {
      handle,
      mode: 'jsonpath',
      path: '$.items[?(@.id > 3)]',
    });
    expect(codeOf(filtered)).toBe('INVALID_ARGUMENTS');
    expect(messageOf(filtered)).toContain('filter and script expressions');
    const plain = await orchestrator.call('tool_output', {
      handle,
      mode: 'jsonpath',
      path: '$.items[5].name',
    });
    expect(plain.ok && plain.content[0]).toEqual({ type: 'text', text: '[\n  "item 5"\n]' });
  });
});
