import { ToolError } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { type PolicyConfig, createPolicy } from '../src/index.js';
import { tool, view } from './helpers.js';

const registry = [
  tool('read', { groups: ['fs'], sideEffect: 'read' }),
  tool('write', { groups: ['fs'], sideEffect: 'mutating' }),
  tool('bash', { groups: ['runtime'], sideEffect: 'spawns', commandArgument: 'command' }),
  tool('web_fetch', { groups: ['web'], sideEffect: 'network' }),
  tool('session_status', { sideEffect: 'read' }),
  tool('sessions_spawn', { groups: ['sessions'], sideEffect: 'spawns' }),
  tool('message', { groups: ['messaging'], sideEffect: 'network' }),
  tool('mcp__github__search', {
    namespace: 'github',
    kind: 'mcp',
    localName: 'search',
    annotations: { readOnlyHint: true },
  }),
  tool('mcp__github__delete_repo', {
    namespace: 'github',
    kind: 'mcp',
    localName: 'delete_repo',
    annotations: { destructiveHint: true },
  }),
  tool('mcp__slack__post', { namespace: 'slack', kind: 'mcp', localName: 'post' }),
];

const visible = (config: PolicyConfig, agentId?: string, depth = 0, channel?: string): string[] =>
  createPolicy(config)
    .filter(registry, view(agentId, depth, channel))
    .map((entry) => entry.name);

describe('tool-list pipeline, step by step', () => {
  it.each<[string, PolicyConfig, string | undefined, number, string | undefined, string[]]>([
    ['no config: the full profile', {}, undefined, 0, undefined, registry.map((entry) => entry.name)],
    [
      '1 profile coding',
      { profile: 'coding' },
      undefined,
      0,
      undefined,
      ['read', 'write', 'bash', 'sessions_spawn'],
    ],
    ['1 profile messaging', { profile: 'messaging' }, undefined, 0, undefined, ['session_status', 'message']],
    ['1 profile minimal', { profile: 'minimal' }, undefined, 0, undefined, ['session_status']],
    [
      '1 user-defined profile',
      { profile: 'web', profiles: { web: ['group:web', 'read'] } },
      undefined,
      0,
      undefined,
      ['read', 'web_fetch'],
    ],
    [
      '1 agent profile replaces the global one',
      { profile: 'minimal', agents: { coder: { profile: 'coding' } } },
      'coder',
      0,
      undefined,
      ['read', 'write', 'bash', 'sessions_spawn'],
    ],
    [
      '2 provider profile override',
      { profile: 'coding', byProvider: { github: { profile: 'full' } } },
      undefined,
      0,
      undefined,
      ['read', 'write', 'bash', 'sessions_spawn', 'mcp__github__search', 'mcp__github__delete_repo'],
    ],
    [
      '3 global allow narrows',
      { allow: ['group:fs', 'mcp__*'] },
      undefined,
      0,
      undefined,
      ['read', 'write', 'mcp__github__search', 'mcp__github__delete_repo', 'mcp__slack__post'],
    ],
    [
      '3 global allow with a pattern',
      { allow: ['mcp__github__*'] },
      undefined,
      0,
      undefined,
      ['mcp__github__search', 'mcp__github__delete_repo'],
    ],
    [
      '4 provider allow narrows only that provider',
      { byProvider: { github: { allow: ['mcp__github__search'] } } },
      undefined,
      0,
      undefined,
      registry.map((entry) => entry.name).filter((name) => name !== 'mcp__github__delete_repo'),
    ],
    [
      '5 agent allow',
      { agents: { reviewer: { allow: ['read', 'group:mcp:github'] } } },
      'reviewer',
      0,
      undefined,
      ['read', 'mcp__github__search', 'mcp__github__delete_repo'],
    ],
    [
      '5 agent allow does not apply to other agents',
      { agents: { reviewer: { allow: ['read'] } } },
      'other',
      0,
      undefined,
      registry.map((entry) => entry.name),
    ],
    [
      '6 agent + provider allow',
      { agents: { reviewer: { allow: ['group:mcp'], byProvider: { github: { allow: ['*search'] } } } } },
      'reviewer',
      0,
      undefined,
      ['mcp__github__search', 'mcp__slack__post'],
    ],
    [
      '7 channel allow',
      { channels: { 'public-chat': { allow: ['group:messaging', 'read'] } } },
      undefined,
      0,
      'public-chat',
      ['read', 'message'],
    ],
    [
      'deny (global) removes',
      { deny: ['group:runtime', 'mcp__github__delete_*'] },
      undefined,
      0,
      undefined,
      registry
        .map((entry) => entry.name)
        .filter((name) => !['bash', 'mcp__github__delete_repo'].includes(name)),
    ],
    [
      'deny (agent) removes for that agent',
      { agents: { a: { deny: ['write'] } } },
      'a',
      0,
      undefined,
      registry.map((entry) => entry.name).filter((name) => name !== 'write'),
    ],
    [
      'alsoAllow adds back what the profile removed',
      { profile: 'minimal', alsoAllow: ['read'] },
      undefined,
      0,
      undefined,
      ['read', 'session_status'],
    ],
    [
      'agent alsoAllow adds back',
      { profile: 'minimal', agents: { a: { alsoAllow: ['group:web'] } } },
      'a',
      0,
      undefined,
      ['web_fetch', 'session_status'],
    ],
    [
      'alsoAllow never beats a deny list',
      { profile: 'minimal', deny: ['read'], alsoAllow: ['read'] },
      undefined,
      0,
      undefined,
      ['session_status'],
    ],
    [
      'subagent deny list (depth 1 of 2)',
      { subagents: { maxDepth: 2 } },
      undefined,
      1,
      undefined,
      registry.map((entry) => entry.name).filter((name) => name !== 'session_status'),
    ],
    [
      'leaf deny list at maximum depth',
      { subagents: { maxDepth: 1 } },
      undefined,
      1,
      undefined,
      registry
        .map((entry) => entry.name)
        .filter((name) => !['session_status', 'sessions_spawn'].includes(name)),
    ],
    [
      'custom subagent lists',
      { subagents: { deny: ['bash'], leafDeny: [] } },
      undefined,
      1,
      undefined,
      registry.map((entry) => entry.name).filter((name) => name !== 'bash'),
    ],
    [
      'user-defined group',
      { groups: { safe: ['read', 'mcp__github__search'] }, allow: ['group:safe'] },
      undefined,
      0,
      undefined,
      ['read', 'mcp__github__search'],
    ],
    [
      'steps intersect: profile then allow then agent allow',
      {
        profile: 'coding',
        allow: ['read', 'write', 'bash'],
        agents: { a: { allow: ['read', 'web_fetch'] } },
      },
      'a',
      0,
      undefined,
      ['read'],
    ],
  ])('%s', (_title, config, agentId, depth, channel, expected) => {
    expect(visible(config, agentId, depth, channel)).toEqual(expected);
  });

  it('an empty allow list does not restrict', () => {
    expect(visible({ allow: [] })).toHaveLength(registry.length);
  });

  it('groups mcp and mcp:<server> come from the provider even when the spec has none', () => {
    expect(visible({ allow: ['group:mcp:slack'] })).toEqual(['mcp__slack__post']);
  });

  it('bad configs fail with CONFIG_INVALID and the path of the entry', () => {
    const cases: [PolicyConfig, string][] = [
      [{ profile: 'nope' }, 'profile: unknown profile "nope"'],
      [{ allow: [''] }, 'allow:'],
      [{ deny: ['group:'] }, 'deny: "group:" names no group'],
      [{ agents: { a: { profile: 'missing' } } }, 'agents.a.profile'],
      [{ byProvider: { github: { profile: 'x' } } }, 'byProvider.github.profile'],
      [{ subagents: { maxDepth: 0 } }, 'subagents.maxDepth'],
      [{ permissions: ['admin' as 'read'] }, 'permissions: unknown permission "admin"'],
      [{ commands: { allow: ['  '] } }, 'command pattern is empty'],
      [{ allow: [42 as unknown as string] }, 'allow:'],
    ];
    for (const [config, message] of cases) {
      let thrown: unknown;
      try {
        createPolicy(config);
      } catch (error) {
        thrown = error;
      }
      expect(ToolError.isInstance(thrown), JSON.stringify(config)).toBe(true);
      expect((thrown as ToolError).code).toBe('CONFIG_INVALID');
      expect((thrown as ToolError).message).toContain(message);
    }
  });

  it('shadow mode hides nothing and reports what it would hide', () => {
    const events: { tools: readonly string[] }[] = [];
    const policy = createPolicy(
      { profile: 'minimal', shadow: true },
      { onShadow: (event) => events.push(event) },
    );
    expect(policy.filter(registry, view())).toHaveLength(registry.length);
    expect(events[0]?.tools).toHaveLength(registry.length - 1);
    expect(events[0]?.tools).not.toContain('session_status');
  });
});

describe('explain()', () => {
  it('names the step and the rule that removed a tool', () => {
    const policy = createPolicy({
      profile: 'coding',
      deny: ['mcp__github__delete_*'],
      byProvider: { github: { profile: 'full' } },
    });
    policy.filter(registry, view('coder'));
    const explanation = policy.explain('mcp__github__delete_repo', view('coder'));
    expect(explanation.visible).toBe(false);
    expect(explanation.decidedBy).toMatchObject({
      step: 'deny',
      outcome: 'removed',
      rule: 'mcp__github__delete_*',
    });
    expect(explanation.steps.map((step) => step.step)).toEqual([
      'profile',
      'provider-profile',
      'allow',
      'provider-allow',
      'agent-allow',
      'agent-provider-allow',
      'channel-allow',
      'permissions',
      'deny',
      'agent-deny',
      'also-allow',
      'agent-also-allow',
      'subagent-deny',
      'leaf-deny',
    ]);
    expect(explanation.text).toContain('mcp__github__delete_repo for agent "coder", depth 0: HIDDEN');
    expect(explanation.text).toContain('decided by: deny [mcp__github__delete_*]: global deny list matches');
  });

  it('explains a tool the profile removed and one alsoAllow added back', () => {
    const policy = createPolicy({ profile: 'minimal', alsoAllow: ['read'] });
    policy.setTools(registry);
    const hidden = policy.explain('write', view());
    expect(hidden.decidedBy).toMatchObject({ step: 'profile', outcome: 'removed' });
    expect(hidden.text).toMatch(/profile\s+removed\s+not in profile "minimal"/);
    const added = policy.explain('read', view());
    expect(added.visible).toBe(true);
    expect(added.decidedBy).toMatchObject({ step: 'also-allow', outcome: 'added', rule: 'read' });
  });

  it('explains a removal by the permission set', () => {
    const policy = createPolicy({ agents: { viewer: { permissions: ['read'] } } });
    policy.setTools(registry);
    const explanation = policy.explain('write', view('viewer'));
    expect(explanation.decidedBy).toMatchObject({ step: 'permissions', outcome: 'removed' });
    expect(explanation.text).toContain('needs write; the permission set grants read');
  });

  it('explains subagent removal and unknown tools', () => {
    const policy = createPolicy({});
    policy.setTools(registry);
    expect(policy.explain('sessions_spawn', view(undefined, 1)).decidedBy).toMatchObject({
      step: 'leaf-deny',
      rule: 'sessions_spawn',
    });
    const unknown = policy.explain('nope', view());
    expect(unknown.known).toBe(false);
    expect(unknown.text).toContain('no such tool is registered');
  });

  it('agrees with filter() for every tool and many configs', () => {
    const configs: PolicyConfig[] = [
      { profile: 'coding', alsoAllow: ['web_fetch'], deny: ['write'] },
      { allow: ['group:mcp'], agents: { a: { deny: ['*delete*'], alsoAllow: ['read'] } } },
      { channels: { c: { allow: ['read', 'message'] } }, subagents: { maxDepth: 2 } },
    ];
    for (const config of configs) {
      for (const [agentId, depth, channel] of [
        [undefined, 0, undefined],
        ['a', 1, 'c'],
        ['a', 2, undefined],
      ] as const) {
        const policy = createPolicy(config);
        const shown = new Set(
          policy.filter(registry, view(agentId, depth, channel)).map((entry) => entry.name),
        );
        for (const entry of registry) {
          expect(policy.explain(entry.name, view(agentId, depth, channel)).visible).toBe(
            shown.has(entry.name),
          );
        }
      }
    }
  });
});

describe('filter() reuse', () => {
  it('returns the same answer for the same registry array and view, and a fresh one for a new array', () => {
    const policy = createPolicy({ profile: 'coding' });
    const first = policy.filter(registry, view('a'));
    expect(policy.filter(registry, view('a'))).toBe(first);
    const grown = [...registry, tool('edit', { groups: ['fs'], sideEffect: 'mutating' })];
    expect(policy.filter(grown, view('a')).map((entry) => entry.name)).toContain('edit');
    expect(policy.filter(registry, view('b', 1))).not.toBe(first);
  });
});
