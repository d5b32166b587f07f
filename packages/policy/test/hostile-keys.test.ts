import { PassThrough } from 'node:stream';
import type { ApprovalRequest } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createPolicy, createTerminalApprovalChannel } from '../src/index.js';
import { tool, view } from './helpers.js';

/**
 * Names that are also members of every JavaScript object (`constructor`, `__proto__`,
 * `toString`, `hasOwnProperty`), where an answer, a config key or a tool name is looked up by
 * name: they must mean what any other unknown or defined name means.
 */
const REQUEST: ApprovalRequest = {
  id: 'hostile',
  tool: 'bash',
  args: {},
  risk: 'high',
  reason: 'asked',
  principal: {},
  sessionId: 's',
  timeoutMs: 10_000,
};

describe('terminal answers named like object members', () => {
  // Looked up in a plain object of answers, `constructor` would find Object itself and end the
  // prompt with an invalid answer (a deny) instead of asking again.
  it.each(['constructor', '__proto__', 'Constructor', '__PROTO__'])(
    '%j is asked again, then the next answer counts',
    async (word) => {
      const input = new PassThrough();
      const output = new PassThrough();
      const answers = [word, 'o'];
      let printed = '';
      output.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        printed += text;
        if (text.endsWith('? ') || text.endsWith(': ')) {
          const next = answers.shift();
          if (next !== undefined) setImmediate(() => input.write(`${next}\n`));
        }
      });
      const channel = createTerminalApprovalChannel({ input, output });
      try {
        expect(await channel.request(REQUEST, new AbortController().signal)).toBe('allow-once');
      } finally {
        channel.close();
      }
      expect(printed).toContain('Please answer o, a or d');
    },
  );
});

describe('config keys and tool names named like object members', () => {
  const registry = [
    tool('read', { groups: ['fs'], sideEffect: 'read' }),
    tool('constructor', { sideEffect: 'mutating', groups: ['toString'] }),
    tool('__proto__', { sideEffect: 'mutating' }),
  ];
  const names = (config: object, agentId?: string, channel?: string) =>
    createPolicy(JSON.parse(JSON.stringify(config)))
      .filter(registry, view(agentId, 0, channel))
      .map((entry) => entry.name);

  it('profiles, agents, groups and channels keyed __proto__ or constructor are their own entries', () => {
    expect(names(JSON.parse('{"profiles":{"__proto__":["read"]},"profile":"__proto__"}'))).toEqual(['read']);
    expect(names({ agents: { constructor: { allow: ['read'] } } }, 'constructor')).toEqual(['read']);
    expect(names({ agents: { constructor: { allow: ['read'] } } }, 'toString')).toHaveLength(3);
    expect(names({ allow: ['group:toString'] })).toEqual(['constructor']);
    expect(names({ allow: ['group:constructor'] })).toEqual([]);
    expect(names({ deny: ['__proto__', 'constructor'] })).toEqual(['read']);
    expect(names({ channels: { hasOwnProperty: { allow: ['read'] } } }, 'a', 'hasOwnProperty')).toEqual([
      'read',
    ]);
  });

  it('a profile named like an object member that is not defined is CONFIG_INVALID', () => {
    for (const profile of ['constructor', 'toString', '__proto__'])
      expect(() => createPolicy({ profile })).toThrow(/unknown profile/);
  });
});
