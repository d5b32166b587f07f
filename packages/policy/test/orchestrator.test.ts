import { type ApprovalDecision, createLocalProvider, defineTool, ok } from '@toolplane/core';
import { createOrchestrator } from '@toolplane/orchestrator';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCallbackApprovalChannel, createPolicy, policyMiddleware } from '../src/index.js';

const ran: string[] = [];
const bash = defineTool({
  name: 'bash',
  description: 'Runs a shell command (records it instead, for the test).',
  input: z.object({ command: z.string() }),
  sideEffect: 'spawns',
  groups: ['runtime'],
  commandArgument: 'command',
  execute: ({ command }) => {
    ran.push(command);
    return ok(`ran ${command}`);
  },
});
const read = defineTool({
  name: 'read',
  description: 'Reads a file.',
  input: z.object({ path: z.string() }),
  sideEffect: 'read',
  groups: ['fs'],
  execute: ({ path }) => {
    ran.push(`read ${path}`);
    return ok('contents');
  },
});
const publish = defineTool({
  name: 'publish',
  description: 'Publishes a post.',
  input: z.object({ text: z.string() }),
  sideEffect: 'network',
  groups: ['messaging'],
  execute: ({ text }) => {
    ran.push(`publish ${text}`);
    return ok('published');
  },
});

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  ran.length = 0;
  await close?.();
  close = undefined;
});

function setup(answer?: ApprovalDecision) {
  const orchestrator = createOrchestrator();
  close = () => orchestrator.close();
  orchestrator.register(createLocalProvider({ namespace: 'local', tools: [bash, read, publish] }));
  const policy = createPolicy({
    profile: 'coding',
    agents: { writer: { profile: 'messaging' } },
    commands: { allow: ['git status', 'ls *'] },
  });
  orchestrator.use(
    policyMiddleware(policy, answer ? { approvals: createCallbackApprovalChannel(() => answer) } : {}),
  );
  return orchestrator;
}

describe('policy gate inside the orchestrator', () => {
  it('narrows listTools per principal', async () => {
    const orchestrator = setup();
    await orchestrator.warmup();
    const names = (agentId: string) =>
      orchestrator
        .listTools({ principal: { agentId }, session: { id: agentId, depth: 0 } })
        .map((spec) => spec.name);
    // every profile keeps the orchestrator's internal tools (group:toolplane)
    expect(names('coder')).toEqual(['batch', 'tool_output', 'local__bash', 'local__read']);
    expect(names('writer')).toEqual(['batch', 'tool_output', 'local__publish']);
  });

  it('denied calls never reach the provider; allowed ones do', async () => {
    const orchestrator = setup();
    const denied = await orchestrator.call(
      'local__bash',
      { command: 'ls && rm -rf /' },
      { session: { id: 's' } },
    );
    expect(denied).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    const hidden = await orchestrator.call(
      'local__publish',
      { text: 'hi' },
      { principal: { agentId: 'coder' }, session: { id: 's' } },
    );
    expect(hidden).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    const headless = await orchestrator.call('local__bash', { command: 'make' }, { session: { id: 's' } });
    expect(headless).toMatchObject({ ok: false, error: { code: 'APPROVAL_REQUIRED' } });
    const allowed = await orchestrator.call('local__bash', { command: 'ls -la' }, { session: { id: 's' } });
    expect(allowed.ok).toBe(true);
    const reading = await orchestrator.call(
      'local__read',
      { path: 'a.txt' },
      { session: { id: 's', mode: 'plan' } },
    );
    expect(reading.ok).toBe(true);
    expect(ran).toEqual(['ls -la', 'read a.txt']);
  });

  it('an approved call runs through the whole pipeline', async () => {
    const orchestrator = setup('allow-once');
    const result = await orchestrator.call(
      'local__bash',
      { command: 'make build' },
      { session: { id: 's' } },
    );
    expect(result.ok).toBe(true);
    expect(ran).toEqual(['make build']);
  });
});
