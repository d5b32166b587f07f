import { describe, expect, it } from 'vitest';
import { ok } from '@toolplane/core';
import { createOrchestrator } from '../../src/index.js';
import { codeOf, endedAfterEach, testProvider } from '../helpers.js';

// A lines or bytes slice with a large limit reads only what fits the size cap, and its header
// names the lines or bytes it shows (never `[lines 1-1000 of 1000]` over 22 lines).

const { track } = endedAfterEach();
const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`);

async function stored() {
  const local = track(createOrchestrator({ output: { maxBytes: 1024 } }));
  local.register(testProvider('p', { t: { run: () => ok(lines.join('\n')) } }));
  const handle = (await local.call('p__t', {})).meta?.truncated?.handle as string;
  expect(handle).toMatch(/^out_/);
  return { local, handle };
}

function textOf(result: Awaited<ReturnType<ReturnType<typeof createOrchestrator>['call']>>): string {
  return result.ok && result.content[0]?.type === 'text' ? result.content[0].text : '';
}

describe('tool_output slices with a large limit', () => {
  it('lines: the header names the lines shown, the rest is offered by offset, and the answer fits', async () => {
    const { local, handle } = await stored();
    const result = await local.call('tool_output', { handle, mode: 'lines', offset: 10, limit: 1_000_000 });
    expect(codeOf(result)).toBe('OK');
    const [header, ...body] = textOf(result).split('\n');
    const note = body.pop() as string;
    const last = 10 + body.length - 1;
    expect(header).toBe(`[lines 10-${last} of 1000]`);
    expect(body).toEqual(lines.slice(9, last));
    expect(note).toBe(
      `[lines ${last + 1}-1000 not shown: an answer holds at most 724 bytes; call again with offset ${last + 1}]`,
    );
    expect(Buffer.byteLength(textOf(result))).toBeLessThanOrEqual(1024);
    const next = await local.call('tool_output', { handle, mode: 'lines', offset: last + 1, limit: 2 });
    expect(textOf(next)).toBe(`[lines ${last + 1}-${last + 2} of 1000]\n${lines[last]}\n${lines[last + 1]}`);
  });

  it('bytes: the header names the bytes shown, and the rest is offered by offset', async () => {
    const { local, handle } = await stored();
    const total = Buffer.byteLength(lines.join('\n'));
    const result = await local.call('tool_output', { handle, mode: 'bytes', offset: 5, limit: 1_000_000 });
    const text = textOf(result);
    expect(text.startsWith(`[bytes 5-729 of ${total}]\n`)).toBe(true);
    expect(text).toBe(
      `[bytes 5-729 of ${total}]\n${lines.join('\n').slice(5, 729)}\n[bytes 729-${total} not shown: an answer holds at most 724 bytes; call again with offset 729]`,
    );
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024);
  });

  it('a line longer than the answer is cut with a note to read it by bytes', async () => {
    const local = track(createOrchestrator({ output: { maxBytes: 1024 } }));
    local.register(testProvider('p', { t: { run: () => ok(`short\n${'x'.repeat(5000)}\nend`) } }));
    const handle = (await local.call('p__t', {})).meta?.truncated?.handle as string;
    const text = textOf(await local.call('tool_output', { handle, mode: 'lines', offset: 2, limit: 5 }));
    expect(text).toBe(
      `[lines 2-2 of 3]\n${'x'.repeat(724)}\n[line 2 is cut at 724 bytes: read the rest with mode "bytes"]`,
    );
  });
});

describe('tool_output answers that fit', () => {
  it('a grep answer under the cap but over a third of it is whole, not marked truncated', async () => {
    const { local, handle } = await stored();
    const text = textOf(
      await local.call('tool_output', { handle, mode: 'grep', pattern: '^line [1-5]\\d$' }),
    );
    const matches = lines.filter((line) => /^line [1-5]\d$/.test(line));
    expect(Buffer.byteLength(text)).toBeGreaterThan(1024 / 3);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024);
    expect(text).not.toContain('truncated');
    expect(text.split('\n').at(-1)).toBe(`60:${matches.at(-1)}`);
    expect(text.split('\n')).toHaveLength(matches.length + 1);
  });
});
