// A stdio server that writes text that is not JSON-RPC to its stdout before it has started
// (fixtures/stdout-first-server.mjs): the start error quotes those lines as it quotes the
// stderr tail, and each is reported as the protocol-error event stray stdout gets after start.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_RESTART_POLICY,
  type McpProviderEvent,
  type McpStdioServerConfig,
  createMcpProvider,
} from '../src/index.js';
import { PROTOCOL_ERRORS_ONE_BY_ONE } from '../src/lifecycle/protocol-errors.js';
import { eventLog, fixture, pidsWithTag, tempDirectory, uniqueTag, waitFor } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

/** How the provider words a stdout line that is not JSON-RPC (as `toolplane doctor` reads it). */
const STRAY = 'malformed JSON-RPC message from the server: ';

function careless(flags: string[], extra: Partial<McpStdioServerConfig> = {}): McpStdioServerConfig {
  return {
    type: 'stdio',
    command: process.execPath,
    args: [fixture('stdout-first-server.mjs'), ...flags],
    healthIntervalMs: 0,
    ...extra,
  };
}

/** Starts a provider over the careless server; returns how the start ended and the events. */
async function startCareless(
  flags: string[],
  extra: Partial<McpStdioServerConfig> = {},
): Promise<{ error: Error | undefined; events: McpProviderEvent[]; tools: number }> {
  const tag = uniqueTag();
  const log = eventLog();
  const provider = createMcpProvider('careless', careless([...flags, `--tag=${tag}`], extra), {
    runDirectory: run.path,
    onEvent: log.onEvent,
  });
  let error: Error | undefined;
  let tools = 0;
  try {
    await provider.start?.(AbortSignal.timeout(60_000));
    tools = (await provider.listTools()).length;
  } catch (caught) {
    error = caught as Error;
  } finally {
    await provider.close?.();
  }
  expect(await waitFor(() => pidsWithTag(tag).length === 0, 10_000)).toBe(true);
  return { error, events: log.events, tools };
}

function strayEvents(events: McpProviderEvent[]): Array<{ message: string; count?: number }> {
  return events.flatMap((event) =>
    event.type === 'protocol-error' && event.message.includes(STRAY) ? [event] : [],
  );
}

describe('a stdio server that prints to stdout before it starts', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: exits 1 before initialize: the start error quotes the line, which is an event too`, async () => {
      const { error, events } = await startCareless(['--then=exit'], { client });
      expect(error?.message).toMatch(
        /"careless".*exited with code 1.*stdout \(not JSON-RPC\): Error: config file not found.*stderr: starting failed, see above/s,
      );
      expect(strayEvents(events)).toEqual([
        { type: 'protocol-error', server: 'careless', message: `${STRAY}Error: config file not found` },
      ]);
    });
  }

  it('hangs before initialize: the startup timeout error quotes the line, which is an event too', async () => {
    const { error, events } = await startCareless(['--then=hang'], { startupTimeoutMs: 3_000 });
    expect(error?.message).toMatch(
      /"careless".*did not initialize within 3000 ms.*stdout \(not JSON-RPC\): Error: config file not found/s,
    );
    expect(strayEvents(events)).toEqual([
      { type: 'protocol-error', server: 'careless', message: `${STRAY}Error: config file not found` },
    ]);
  });

  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: prints a banner and then starts: the start succeeds and the banner is reported once`, async () => {
      const { error, events, tools } = await startCareless(
        ['--then=serve', '--say=Careless server 1.0 ready'],
        { client },
      );
      expect(error).toBeUndefined();
      expect(tools).toBeGreaterThan(0);
      expect(strayEvents(events)).toEqual([
        { type: 'protocol-error', server: 'careless', message: `${STRAY}Careless server 1.0 ready` },
      ]);
    });
  }

  it('quotes only the last lines, each cut, and counts every line in the events', async () => {
    const { error, events } = await startCareless([
      '--then=exit',
      '--lines=30',
      '--long=5000',
      '--say=Error: stage failed',
    ]);
    const message = error?.message ?? '';
    expect(message).toMatch(
      /stdout \(not JSON-RPC; the last 5 of 30 lines\): Error: stage failed \(line 26 of 30\)/,
    );
    for (let line = 26; line <= 30; line++) expect(message).toContain(`(line ${line} of 30)`);
    expect(message).not.toContain('(line 25 of 30)');
    // the 5000-character line is cut, saying how long it was
    expect(message).toContain('... (5000 characters)');
    expect(message).not.toMatch(/x{300}/);
    expect(message.length).toBeLessThan(2_000);
    // every line is an event: the first ones one by one, the rest counted in a summary
    const reports = strayEvents(events);
    expect(reports[0]?.message).toBe(`${STRAY}Error: stage failed (line 1 of 30)`);
    expect(reports.filter((report) => report.count === undefined)).toHaveLength(PROTOCOL_ERRORS_ONE_BY_ONE);
    const counted = reports.reduce((sum, report) => sum + (report.count ?? 1), 0);
    expect(counted).toBe(30);
  });

  it('fails to restart after a crash: the give-up reason quotes the line, which is an event too', async () => {
    const marker = join(run.path, 'config-gone');
    const tag = uniqueTag();
    const log = eventLog();
    const provider = createMcpProvider('careless', careless([`--fail-while=${marker}`, `--tag=${tag}`]), {
      runDirectory: run.path,
      onEvent: log.onEvent,
      restartPolicy: { ...DEFAULT_RESTART_POLICY, backoffMs: [0, 10], maxRestarts: 1 },
    });
    try {
      await provider.start?.(AbortSignal.timeout(60_000));
      expect(strayEvents(log.events)).toEqual([]);
      // its config goes away, then it crashes: the restart prints why it cannot start, and exits
      writeFileSync(marker, 'gone');
      await provider.execute('crash', {}, createToolContext());
      expect(await waitFor(() => provider.status().state === 'failed', 60_000)).toBe(true);
      const failed = log.events.find((event) => event.type === 'server-failed');
      expect(failed?.type === 'server-failed' && failed.reason).toMatch(
        /exited with code 1; stdout \(not JSON-RPC\): Error: config file not found/,
      );
      expect(strayEvents(log.events)).toEqual([
        { type: 'protocol-error', server: 'careless', message: `${STRAY}Error: config file not found` },
      ]);
    } finally {
      await provider.close?.();
    }
    expect(await waitFor(() => pidsWithTag(tag).length === 0, 10_000)).toBe(true);
  });
});
