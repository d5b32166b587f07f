import { describe, expect, it } from 'vitest';
import { ok } from '@toolplane/core';
import { createOrchestrator } from '../../src/index.js';
import { endedAfterEach, testProvider, thrownBy } from '../helpers.js';

// Listeners that change the listener list while an event is being delivered.

const { track } = endedAfterEach();

describe('a listener that unsubscribes or subscribes during an event', () => {
  it('one that unsubscribes itself does not make the next listener miss the event', async () => {
    const local = track(createOrchestrator());
    local.register(testProvider('p', { x: { run: () => ok('x') } }));
    const seen: string[] = [];
    const off = local.on('tool_finished', () => {
      seen.push('once');
      off();
    });
    local.on('tool_finished', (event) => seen.push(`books ${event.tool}`));
    await local.call('p__x', {});
    await local.call('p__x', {});
    expect(seen).toEqual(['once', 'books p__x', 'books p__x']);
  });

  it('one added during an event gets the next event, not the one being delivered', async () => {
    const local = track(createOrchestrator());
    local.register(testProvider('p', { x: { run: () => ok('x') } }));
    const seen: string[] = [];
    local.on('tool_finished', () => {
      if (seen.length === 0) local.on('tool_finished', () => seen.push('late'));
      seen.push('first');
    });
    await local.call('p__x', {});
    await local.call('p__x', {});
    expect(seen).toEqual(['first', 'first', 'late']);
  });
});

describe('on() of what is no event listener', () => {
  it('on() of an unknown event or a listener that is not a function is CONFIG_INVALID', () => {
    const orchestrator = track(createOrchestrator());
    const unknown = thrownBy(() => orchestrator?.on('tool_done' as never, () => {}));
    expect(unknown.code).toBe('CONFIG_INVALID');
    expect(unknown.message).toContain(
      'unknown orchestrator event "tool_done"; use one of tool_started, tool_progress, tool_finished',
    );
    const notFunction = thrownBy(() => orchestrator?.on('warning', 'log' as never));
    expect(notFunction.code).toBe('CONFIG_INVALID');
    expect(notFunction.message).toContain('a listener of "warning" must be a function; got string');
  });
});
