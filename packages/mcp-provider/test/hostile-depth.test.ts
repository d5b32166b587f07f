// Messages nested 100 000 levels deep, and keys and ids named after Object.prototype members, in
// what a server sends besides answers: notifications, requests, stray answers.
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../src/index.js';
import { eventLog, hostileServer, tempDirectory } from './helpers.js';

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
