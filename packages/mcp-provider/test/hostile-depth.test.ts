// Messages nested 100 000 levels deep, and keys and ids named after Object.prototype members, in
// what a server sends besides answers: notifications, requests, stray answers.
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../src/index.js';
import { eventLog, hostileServer, tempDirectory } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

describe('notifications, requests and answers nested 100 000 deep or keyed "__proto__"', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`are reported and dropped, and the session serves on (client ${client})`, async () => {
      const log = eventLog();
      // the startup timeout is far longer than the test's: a start that never ends fails the test
      const provider = createMcpProvider(
        'notes',
        hostileServer(['--hostile-notes=100000'], { client, startupTimeoutMs: 600_000 }),
        { runDirectory: run.path, onEvent: log.onEvent },
      );
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        expect((await provider.listTools()).map((spec) => spec.name)).toContain('echo');
        expect(await provider.execute('echo', {}, createToolContext())).toMatchObject({ ok: true });
        const reports = log.events.flatMap((event) =>
          event.type === 'protocol-error' ? [event.message] : [],
        );
        // a message quoted with JSON.stringify by the client overflowed the stack: dropped, reported
        expect(reports).toContainEqual(
          expect.stringMatching(
            /^a message from the server could not be handled \(Maximum call stack size exceeded\)/,
          ),
        );
        expect(reports.every((message) => message.length <= 1003)).toBe(true);
        expect(provider.status().state).toBe('ready');
        expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
      } finally {
        await provider.close?.();
      }
    }, 60_000);
  }
});

describe('tool definitions nested 100 000 deep', () => {
  it('leaves out a tool whose outputSchema nests too deep, and the others serve', async () => {
    const log = eventLog();
    const provider = createMcpProvider(
      'deep',
      hostileServer(['--deep-output=100000', '--deep-schema=100000']),
      {
        runDirectory: run.path,
        onEvent: log.onEvent,
      },
    );
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      const names = (await provider.listTools()).map((spec) => spec.name);
      expect(names).toContain('echo');
      expect(names).not.toContain('deep_output');
      expect(names).not.toContain('deep');
      const reports = log.events.flatMap((event) => (event.type === 'protocol-error' ? [event.message] : []));
      expect(reports).toContainEqual(
        expect.stringMatching(/"deep_output" nests deeper than 100 levels: left out/),
      );
      expect(await provider.execute('echo', {}, createToolContext())).toMatchObject({ ok: true });
    } finally {
      await provider.close?.();
    }
  }, 60_000);
});

describe('arguments nested 100 000 deep', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`are INVALID_ARGUMENTS naming the depth, never sent (client ${client})`, async () => {
      const provider = createMcpProvider('args', hostileServer(['--proto-keys'], { client }), {
        runDirectory: run.path,
      });
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        const deep = JSON.parse(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
        const result = await provider.execute('raw_arguments', deep, createToolContext());
        expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
        expect(!result.ok && result.error.message).toMatch(
          /^MCP server "args" tool "raw_arguments": the arguments nest deeper than 1000 levels/,
        );
        // as deep as a result may be: sent as it is
        const fits = JSON.parse(`{"a":${'['.repeat(990)}${']'.repeat(990)}}`);
        const sent = await provider.execute('raw_arguments', fits, createToolContext());
        expect(sent.ok && sent.content[0]?.type === 'text' && sent.content[0].text).toBe(
          JSON.stringify(fits),
        );
      } finally {
        await provider.close?.();
      }
    }, 60_000);
  }
});

describe('a resource listed with a _meta nested 100 000 deep', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`makes list_resources INVALID_RESULT naming the depth (client ${client})`, async () => {
      const provider = createMcpProvider(
        'docs',
        hostileServer(['--resources', '--deep-resource=100000'], { client }),
        { runDirectory: run.path },
      );
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        const result = await provider.execute('list_resources', {}, createToolContext());
        expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_RESULT' } });
        expect(!result.ok && result.error.message).toMatch(
          /^MCP server "docs" tool "list_resources": resources\/list gave resources that nest deeper than 1000 levels/,
        );
        expect(await provider.execute('echo', {}, createToolContext())).toMatchObject({ ok: true });
      } finally {
        await provider.close?.();
      }
    }, 60_000);
  }
});
