import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolSpec } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { echo, testProvider, waitFor } from '../helpers.js';

// A provider whose list changes again while the orchestrator re-lists it, and one whose
// re-listing never answers.

let orchestrator: ToolsOrchestrator | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await orchestrator?.close();
  orchestrator = undefined;
});

/** A child process that exits when it reads a line (a server slow to answer tools/list). */
function waiter(): ChildProcess {
  const child = spawn(process.execPath, ['-e', "process.stdin.once('data', () => process.exit(0))"], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  children.push(child);
  return child;
}

describe('a tool list that changes while it is re-listed', () => {
  it('a change announced during a re-list is listed too', async () => {
    const local = createOrchestrator({ internalTools: false });
    orchestrator = local;
    let slow: ChildProcess | undefined;
    const provider = testProvider('live', { one: echo });
    const listNow = provider.listTools;
    let slowNext = false;
    provider.listTools = async (): Promise<ToolSpec[]> => {
      const listed = listNow() as ToolSpec[];
      if (slowNext) {
        slowNext = false;
        slow = waiter();
        await once(slow, 'exit');
      }
      return listed;
    };
    local.register(provider);
    await local.warmup();
    slowNext = true;
    provider.changeTools({ one: echo, two: echo });
    await waitFor(() => slow !== undefined);
    // the re-list has read the list with "two"; the provider changes it again meanwhile
    provider.changeTools({ one: echo, two: echo, three: echo });
    slow?.stdin?.write('answer\n');
    await waitFor(() => local.hasTool('live__three'));
    expect(local.listTools().map((spec) => spec.name)).toEqual(['live__one', 'live__two', 'live__three']);
  });

  it('a re-list that never answers is given up after startTimeoutMs with a warning; later changes are listed', async () => {
    const local = createOrchestrator({ internalTools: false, startTimeoutMs: 200 });
    orchestrator = local;
    const warnings: string[] = [];
    local.on('warning', (event) => warnings.push(event.message));
    const provider = testProvider('live', { one: echo });
    const listNow = provider.listTools;
    let hangNext = false;
    provider.listTools = (): ToolSpec[] | Promise<ToolSpec[]> => {
      if (!hangNext) return listNow() as ToolSpec[];
      hangNext = false;
      return new Promise(() => {});
    };
    local.register(provider);
    await local.warmup();
    hangNext = true;
    provider.changeTools({ one: echo, two: echo });
    await waitFor(() => warnings.some((message) => message.includes('did not answer within 200 ms')));
    expect(local.hasTool('live__two')).toBe(false);
    provider.changeTools({ one: echo, two: echo, three: echo });
    await waitFor(() => local.hasTool('live__three'));
    expect(warnings.join('\n')).toMatch(
      /re-listing the tools of "live" did not answer within 200 ms; the previous list is kept/,
    );
  });
});
