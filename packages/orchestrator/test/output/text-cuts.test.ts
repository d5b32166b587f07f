import { afterEach, describe, expect, it } from 'vitest';
import { createLocalProvider } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { type Children, codeOf, messageOf, reporter, waitFor } from '../helpers.js';

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

/** Whether text has no lone surrogate (String#isWellFormed, which Node 20's TypeScript lib lacks). */
function wellFormed(text: string | undefined): boolean {
  return text !== undefined && !/\p{Surrogate}/u.test(text);
}

describe('long texts cut where they are shown', () => {
  // a cut between the two halves of a surrogate pair leaves a lone surrogate, which is no text:
  // UTF-8 encoders (a log, an MCP answer) turn it into U+FFFD, and strict ones refuse it
  const emoji = '\u{1F600}';

  it('a cancel reason cut at 1000 characters keeps whole characters', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const children: Children = new Map();
    local.register(createLocalProvider({ namespace: 'p', tools: [reporter(children, [])] }));
    const call = local.call('p__report', { key: 'cut' }, { callId: 'cut-1' });
    await waitFor(() => children.has('cut'));
    expect(local.cancel('cut-1', `${'a'.repeat(999)}${emoji.repeat(10)}`)).toBe(true);
    const message = messageOf(await call);
    expect(wellFormed(message)).toBe(true);
    expect(message).toMatch(/a{999}\.\.\.$/);
  });

  it('a taken callId and an unknown tool name cut in their messages keep whole characters', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const children: Children = new Map();
    local.register(createLocalProvider({ namespace: 'p', tools: [reporter(children, [])] }));
    const id = `${'i'.repeat(99)}${emoji.repeat(20)}`;
    const running = local.call('p__report', { key: 'held' }, { callId: id });
    await waitFor(() => children.has('held'));
    const taken = await local.call('p__report', { key: 'second' }, { callId: id });
    expect(codeOf(taken)).toBe('INVALID_ARGUMENTS');
    expect(wellFormed(messageOf(taken))).toBe(true);
    const unknown = await local.call(`${'t'.repeat(199)}${emoji.repeat(20)}`, {});
    expect(codeOf(unknown)).toBe('TOOL_NOT_FOUND');
    expect(wellFormed(messageOf(unknown))).toBe(true);
    expect(wellFormed(unknown.meta?.tool)).toBe(true);
    expect(local.cancel(id)).toBe(true);
    expect(codeOf(await running)).toBe('CANCELLED');
  });
});
