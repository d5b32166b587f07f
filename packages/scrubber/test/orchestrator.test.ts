import { type ProgressUpdate, type Tool, createLocalProvider, fail, ok } from '@toolplane/core';
import { createOrchestrator } from '@toolplane/orchestrator';
import { afterEach, describe, expect, it } from 'vitest';
import { createScrubber, scrubberMiddleware } from '../src/index.js';
import { ALPHABETS, createFakeSource } from '../src/testing/index.js';

const fake = createFakeSource();
const token = `ghp_${fake.chars(ALPHABETS.alnum, 36)}`;
const held = fake.chars(ALPHABETS.alnum, 30);

const tools: Tool[] = [
  {
    spec: {
      name: 'leak',
      description: 'echoes credentials',
      inputSchema: { type: 'object' },
      sideEffect: 'none',
    },
    async execute(_args, ctx) {
      ctx.progress({ message: `using ${token}`, progress: 1, total: 1 });
      return ok(`token=${token} held=${held}`, { auth: { password: `${held}!` }, token });
    },
  },
  {
    spec: {
      name: 'broken',
      description: 'fails with a credential',
      inputSchema: { type: 'object' },
      sideEffect: 'none',
    },
    async execute() {
      return fail('EXECUTION_FAILED', `login failed for ${held}`);
    },
  },
];

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('with the real orchestrator', () => {
  it('scrubs results, structured data, failures and progress of registered tools', async () => {
    const orchestrator = createOrchestrator({});
    close = () => orchestrator.close();
    orchestrator.register(createLocalProvider({ namespace: 'demo', tools }));
    orchestrator.use(scrubberMiddleware(createScrubber({ secrets: [held] })));
    const updates: ProgressUpdate[] = [];
    const result = await orchestrator.call('demo__leak', {}, { progress: (update) => updates.push(update) });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.content).toEqual([
      { type: 'text', text: 'token=[REDACTED:github_token] held=[REDACTED:secret]' },
    ]);
    expect(result.structured).toEqual({
      auth: { password: '[REDACTED:password]' },
      token: '[REDACTED:github_token]',
    });
    expect(updates.map((update) => update.message)).toEqual(['using [REDACTED:github_token]']);
    const failure = await orchestrator.call('demo__broken', {});
    expect(failure).toMatchObject({
      ok: false,
      error: { code: 'EXECUTION_FAILED', message: 'login failed for [REDACTED:secret]' },
    });
  });
});
