import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ECHO_TOOL,
  type TestServer,
  grant,
  makeKey,
  putCustomTool,
  startTestServer,
  storages,
} from './helpers/test-server.js';

/** Reads an SSE body into its events. */
async function readEvents(response: Response): Promise<{ event: string; data: string }[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event =
        lines
          .find((line) => line.startsWith('event:'))
          ?.slice(6)
          .trim() ?? 'message';
      const data = lines
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      return { event, data };
    });
}

describe.each(storages())('tools over the HTTP API on $kind', ({ kind, skip }) => {
  let t: TestServer;
  let agentKey: string;

  beforeAll(async () => {
    if (skip) return;
    t = await startTestServer({ storage: kind });
    await putCustomTool(t, 'echo', ECHO_TOOL);
    await putCustomTool(t, 'ticks', {
      description: 'Prints three lines, a moment apart',
      parameters: { type: 'object', properties: {} },
      argv: ['sh', '-c', 'for i in 1 2 3; do echo tick $i; sleep 0.1; done'],
    });
    agentKey = await makeKey(t, t.adminKey, 'agent', 'coder');
    await grant(t, 'agent', 'coder', ['custom__echo', 'custom__ticks']);
  });
  afterAll(async () => {
    await t?.close();
  });

  it.skipIf(skip)('lists the tools a key is granted', async () => {
    const list = await t.api('GET', '/v1/tools', { key: agentKey });
    expect(list.status).toBe(200);
    expect(list.body.tools.map((tool: { name: string }) => tool.name).sort()).toEqual([
      'custom__echo',
      'custom__ticks',
    ]);
    expect(
      list.body.tools.find((tool: { name: string }) => tool.name === 'custom__echo').inputSchema.required,
    ).toEqual(['text']);
  });

  it.skipIf(skip)('calls a tool and answers its result', async () => {
    const call = await t.api('POST', '/v1/tools/custom__echo/call', {
      key: agentKey,
      body: { arguments: { text: 'hello' } },
    });
    expect(call.status).toBe(200);
    expect(call.body.result.ok).toBe(true);
    expect(call.body.result.content[0].text).toBe('[hello]\n');
  });

  it.skipIf(skip)(
    'passes arguments with quotes, $(), backticks, ; newlines and -- to the command as plain data',
    async () => {
      const attempts = [
        `a'b"c`,
        '$(touch /tmp/toolplane-pwned)',
        '`id`',
        'x; echo injected',
        'line1\nline2',
        '--help',
        '-- --version',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion is the test input
        '${HOME} && || | > /dev/null',
      ];
      for (const text of attempts) {
        const call = await t.api('POST', '/v1/tools/custom__echo/call', {
          key: agentKey,
          body: { arguments: { text } },
        });
        expect(call.body.result.ok, text).toBe(true);
        expect(call.body.result.content[0].text).toBe(`[${text}]\n`);
      }
    },
  );

  it.skipIf(skip)('streams progress as SSE with Accept: text/event-stream, then one result', async () => {
    const response = await fetch(`${t.url}/v1/tools/custom__ticks/call`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${agentKey}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ arguments: {} }),
    });
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events = await readEvents(response);
    const progress = events.filter((event) => event.event === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((event) => JSON.parse(event.data).message).join('')).toContain('tick 1');
    expect(events.at(-1)?.event).toBe('result');
    expect(JSON.parse(events.at(-1)?.data ?? '{}').ok).toBe(true);
  });

  it.skipIf(skip)('streams with ?stream=1 too', async () => {
    const response = await fetch(`${t.url}/v1/tools/custom__echo/call?stream=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agentKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ arguments: { text: 's' } }),
    });
    const events = await readEvents(response);
    expect(events.at(-1)?.event).toBe('result');
    expect(JSON.parse(events.at(-1)?.data ?? '{}').content[0].text).toBe('[s]\n');
  });

  it.skipIf(skip)('runs a batch, answering each call in order', async () => {
    const batch = await t.api('POST', '/v1/batch', {
      key: agentKey,
      body: {
        calls: [
          { name: 'custom__echo', arguments: { text: 'one' } },
          { name: 'custom__nope', arguments: {} },
          { name: 'custom__echo', arguments: {} },
          { name: 'custom__echo', arguments: { text: 'two' } },
        ],
      },
    });
    expect(batch.status).toBe(200);
    const results = batch.body.results;
    expect(results.map((result: { ok: boolean }) => result.ok)).toEqual([true, false, false, true]);
    expect(results[0].content[0].text).toBe('[one]\n');
    expect(results[1].error.code).toBe('TOOL_NOT_FOUND');
    expect(results[2].error.code).toBe('INVALID_ARGUMENTS');
    expect(results[3].content[0].text).toBe('[two]\n');
  });

  it.skipIf(skip)('refuses a batch over 32 calls with the schema error', async () => {
    const calls = Array.from({ length: 33 }, () => ({ name: 'custom__echo', arguments: { text: 'x' } }));
    const batch = await t.api('POST', '/v1/batch', { key: agentKey, body: { calls } });
    expect(batch.status).toBe(400);
    expect(batch.body.error.reason).toBe('schema');
  });

  it.skipIf(skip)('answers 404 TOOL_NOT_FOUND for an unknown tool without naming other tools', async () => {
    const call = await t.api('POST', '/v1/tools/custom__ech/call', {
      key: agentKey,
      body: { arguments: {} },
    });
    expect(call.status).toBe(404);
    expect(call.body.result.error.code).toBe('TOOL_NOT_FOUND');
    expect(call.body.result.error.message).not.toContain('custom__echo');
  });

  it.skipIf(skip)('accounts for recent calls of the tenant', async () => {
    await t.api('POST', '/v1/tools/custom__echo/call', {
      key: agentKey,
      body: { arguments: { text: 'counted' } },
    });
    const accounting = await t.api('GET', '/v1/accounting', { key: t.adminKey });
    expect(accounting.status).toBe(200);
    const records = accounting.body.records as { tool: string; ok?: boolean }[];
    expect(records.filter((record) => record.tool === 'custom__echo').length).toBeGreaterThan(0);
    expect(accounting.body.totals.custom__echo.calls).toBeGreaterThan(0);
  });
});
