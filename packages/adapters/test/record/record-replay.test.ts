import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalProvider, defineTool, ok } from '@toolplane/core';
import { createOrchestrator } from '@toolplane/orchestrator';
import { createScrubber, scrubberMiddleware } from '@toolplane/scrubber';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { REPLAY_MISS, createRecorder, createReplayProvider, parseRecording } from '../../src/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adapters-record-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function liveProvider(secret: string) {
  let count = 0;
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks a key up.',
    input: z.object({ key: z.string(), verbose: z.boolean().default(false) }),
    sideEffect: 'read',
    execute: ({ key }) => {
      count++;
      return ok(`value of ${key} #${count}; token=${secret}`, { key, count });
    },
  });
  return createLocalProvider({ namespace: 'kv', tools: [lookup] });
}

async function record(path: string, secret: string) {
  const orchestrator = createOrchestrator();
  const scrubber = createScrubber();
  scrubber.addSecret(secret);
  orchestrator.use(scrubberMiddleware(scrubber)).use(createRecorder({ path }));
  orchestrator.register(liveProvider(secret));
  await orchestrator.call('kv__lookup', { key: 'a' });
  await orchestrator.call('kv__lookup', { key: 'a' });
  await orchestrator.call('kv__lookup', { key: 'b', verbose: true });
  await orchestrator.close();
}

describe('record and replay', () => {
  it('records every call and its scrubbed result as JSONL', async () => {
    const path = join(dir, 'calls.jsonl');
    const secret = `sk-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
    await record(path, secret);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(secret);
    const lines = parseRecording(text);
    expect(lines.map((l) => l.type)).toEqual(['tool', 'call', 'call', 'call']);
    const calls = lines.filter((l) => l.type === 'call');
    expect(calls.map((c) => c.args)).toEqual([{ key: 'a' }, { key: 'a' }, { key: 'b', verbose: true }]);
    expect(calls.every((c) => c.result.meta === undefined)).toBe(true);
  });

  it('replays recorded results deterministically, in order per arguments, without the live tool', async () => {
    const path = join(dir, 'calls.jsonl');
    await record(path, `sk-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`);
    const replay = createOrchestrator();
    replay.register(createReplayProvider({ recording: path }));
    await replay.warmup();
    expect(replay.listTools().map((t) => t.name)).toContain('kv__lookup');
    const texts: unknown[] = [];
    for (const args of [{ key: 'a' }, { key: 'b', verbose: true }, { key: 'a' }, { key: 'a' }]) {
      const result = await replay.call('kv__lookup', args);
      texts.push(result.ok ? result.structured : result.error.code);
    }
    expect(texts).toEqual([
      { key: 'a', count: 1 },
      { key: 'b', count: 3 },
      { key: 'a', count: 2 },
      { key: 'a', count: 2 },
    ]);
    await replay.close();
  });

  it('fails loudly with REPLAY_MISS for a call it has no recording for', async () => {
    const path = join(dir, 'calls.jsonl');
    await record(path, `sk-${Math.random().toString(36).slice(2)}`);
    const replay = createOrchestrator({ retry: { maxAttempts: 1 } });
    replay.register(createReplayProvider({ recording: path }));
    const result = await replay.call('kv__lookup', { key: 'zzz' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      code: 'EXECUTION_FAILED',
      retryable: false,
      details: { reason: REPLAY_MISS },
    });
    expect(result.error.message).toContain('no recording of kv__lookup with {"key":"zzz"}');
    expect(result.error.message).toContain('{"key":"a"}');
    await replay.close();
  });

  it('refuses a file that is not a recording with CONFIG_INVALID naming the line', () => {
    const path = join(dir, 'bad.jsonl');
    writeFileSync(path, '{"type":"tool","name":"x","description":"","inputSchema":{}}\n{"type":"call"}\n');
    expect(() => createReplayProvider({ recording: path })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining('line 2') }),
    );
  });
});
