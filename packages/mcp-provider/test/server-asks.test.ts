// A hostile server's side of the conversation: requests to the client (sampling, elicitation,
// roots) that a client without those capabilities must refuse, floods of notifications (a 10 MB
// log message, progress for tokens never sent), and a tool list that changes between pages.
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { type McpStdioServerConfig, createMcpProvider } from '../src/index.js';
import { eventLog, fixture, tempDirectory } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

function askingServer(flags: string[] = [], extra: Partial<McpStdioServerConfig> = {}): McpStdioServerConfig {
  return {
    type: 'stdio',
    command: process.execPath,
    args: [fixture('asking-server.mjs'), ...flags],
    healthIntervalMs: 0,
    ...extra,
  };
}

describe('requests from the server', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`sampling, elicitation and roots are refused at once with "method not found" (client ${client})`, async () => {
      const provider = createMcpProvider('asking', askingServer([], { client }), { runDirectory: run.path });
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        const result = await provider.execute('ask', {}, createToolContext());
        expect(result.ok).toBe(true);
        const text = result.ok ? String(result.content[0]?.type === 'text' && result.content[0].text) : '';
        const lines = text.split('\n');
        expect(lines).toHaveLength(3);
        expect(lines[0]).toMatch(/^sampling\/createMessage: error -32601 /);
        expect(lines[1]).toMatch(/^elicitation\/create: error -32601 /);
        expect(lines[2]).toMatch(/^roots\/list: error -32601 /);
      } finally {
        await provider.close?.();
      }
    }, 60_000);
  }
});

describe('notification floods', () => {
  it('a 10 MB log message is dropped, and the server serves on', async () => {
    const log = eventLog();
    const provider = createMcpProvider('logger', askingServer(['--log-bytes=10000000']), {
      runDirectory: run.path,
      onEvent: log.onEvent,
    });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      const result = await provider.execute('echo', {}, createToolContext());
      expect(result.ok).toBe(true);
      for (const event of log.events) expect(JSON.stringify(event).length).toBeLessThan(5_000);
    } finally {
      await provider.close?.();
    }
  }, 60_000);

  for (const client of ['v1', 'v2'] as const) {
    it(`progress for 2000 tokens never sent is a few counted protocol-error events (client ${client})`, async () => {
      const log = eventLog();
      const provider = createMcpProvider('progress', askingServer(['--unknown-progress=2000'], { client }), {
        runDirectory: run.path,
        onEvent: log.onEvent,
      });
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        expect((await provider.execute('echo', {}, createToolContext())).ok).toBe(true);
      } finally {
        await provider.close?.();
      }
      const reports = log.events.filter((event) => event.type === 'protocol-error');
      expect(reports.length).toBeLessThan(50);
      const counted = reports.reduce(
        (sum, event) => sum + ('count' in event && event.count ? event.count : 1),
        0,
      );
      expect(counted).toBe(2000);
      expect(reports[0] && 'message' in reports[0] && reports[0].message).toMatch(/progress/i);
    }, 60_000);
  }
});

describe('a tool list that changes between pages', () => {
  it('keeps each name once (the first definition) and reports the repeated one', async () => {
    const log = eventLog();
    const provider = createMcpProvider('shifting', askingServer(['--shifting-pages']), {
      runDirectory: run.path,
      onEvent: log.onEvent,
    });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect((await provider.listTools()).map((spec) => spec.name)).toEqual(['alpha', 'beta', 'gamma']);
      const reports = log.events.filter((event) => event.type === 'protocol-error');
      expect(reports.map((event) => ('message' in event ? event.message : ''))).toEqual([
        expect.stringContaining('beta'),
      ]);
    } finally {
      await provider.close?.();
    }
  }, 60_000);
});

describe('answers under an id of no type JSON-RPC allows', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`are reported and not given to the one call in flight, which gets its own answer (client ${client})`, async () => {
      const log = eventLog();
      const provider = createMcpProvider('badids', askingServer(['--bad-ids'], { client }), {
        runDirectory: run.path,
        onEvent: log.onEvent,
      });
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        const result = await provider.execute('echo', {}, createToolContext());
        expect(result.ok && result.content).toEqual([{ type: 'text', text: 'ok' }]);
      } finally {
        await provider.close?.();
      }
      expect(log.events.filter((event) => event.type === 'protocol-error').length).toBeGreaterThan(0);
    }, 60_000);
  }
});
