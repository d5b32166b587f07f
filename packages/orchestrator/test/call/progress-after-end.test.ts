import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ToolResult, createLocalProvider, defineTool } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { type Children, codeOf, echoChild, reporter, waitFor } from '../helpers.js';

// What a call that was cancelled or has ended may still send under its id: progress a tool
// reports late is dropped, never shown under a later call that reuses the id.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

describe('what a call sends under its id after it has ended', () => {
  it('progress a tool reports after its call ended is dropped, not shown as progress of a later call with that id', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const children: Children = new Map();
    const forwarded: string[] = [];
    local.register(createLocalProvider({ namespace: 'p', tools: [reporter(children, forwarded)] }));
    const progress: string[] = [];
    local.on('tool_progress', (event) => progress.push(`${event.callId} ${event.update.message}`));

    const first = local.call('p__report', { key: 'old' }, { callId: 'same' });
    await waitFor(() => children.has('old'));
    children.get('old')?.stdin?.write('first\n');
    expect(codeOf(await first)).toBe('OK');

    // the model resends a call with that id; the old call's child goes on printing
    const second = local.call('p__report', { key: 'new' }, { callId: 'same' });
    await waitFor(() => children.has('new'));
    children.get('old')?.stdin?.write('late\n');
    await waitFor(() => forwarded.includes('old:late'));
    children.get('new')?.stdin?.write('own\n');
    expect(codeOf(await second)).toBe('OK');

    expect(progress).toEqual(['same old:first', 'same new:own']);
    children.get('old')?.kill('SIGKILL');
    children.get('new')?.kill('SIGKILL');
  });

  it('progress after cancel(callId) is dropped too', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const children: Children = new Map();
    const forwarded: string[] = [];
    // this tool does not kill its child on cancel: the child goes on reporting
    const stubborn = defineTool({
      name: 'stubborn',
      description: 'Reports every line its child prints; never answers.',
      input: z.object({}),
      sideEffect: 'none',
      execute: (_args, ctx) =>
        new Promise<ToolResult>(() => {
          const child = echoChild();
          children.set('stubborn', child);
          child.stdout?.setEncoding('utf8');
          child.stdout?.on('data', (text: string) => {
            forwarded.push(text.trim());
            ctx.progress?.({ message: text.trim() });
          });
        }),
    });
    local.register(createLocalProvider({ namespace: 'p', tools: [stubborn] }));
    const progress: string[] = [];
    local.on('tool_progress', (event) => progress.push(String(event.update.message)));
    const call = local.call('p__stubborn', {}, { callId: 'st-1' });
    await waitFor(() => children.has('stubborn'));
    children.get('stubborn')?.stdin?.write('before\n');
    await waitFor(() => progress.length === 1);
    expect(local.cancel('st-1')).toBe(true);
    expect(codeOf(await call)).toBe('CANCELLED');
    children.get('stubborn')?.stdin?.write('after\n');
    await waitFor(() => forwarded.includes('after'));
    expect(progress).toEqual(['before']);
    children.get('stubborn')?.kill('SIGKILL');
  });
});
