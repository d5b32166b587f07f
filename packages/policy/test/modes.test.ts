import type { PermissionMode } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../src/index.js';
import { bash, call, tool } from './helpers.js';

const read = tool('read', { groups: ['fs'], sideEffect: 'read' });
const grep = tool('grep', { groups: ['fs'], sideEffect: 'none' });
const write = tool('write', { groups: ['fs'], sideEffect: 'mutating' });
const fetchTool = tool('web_fetch', { groups: ['web'], sideEffect: 'network' });
const spawn = tool('spawn', { sideEffect: 'spawns' });
const mcpReadOnly = tool('mcp__gh__search', {
  namespace: 'gh',
  kind: 'mcp',
  annotations: { readOnlyHint: true },
});
const mcpSilent = tool('mcp__gh__create_issue', { namespace: 'gh', kind: 'mcp' });
const mcpDestructive = tool('mcp__gh__delete_repo', {
  namespace: 'gh',
  kind: 'mcp',
  annotations: { destructiveHint: true },
});

type Expected = 'allow' | 'ask' | 'deny';

describe('permission modes', () => {
  const policy = createPolicy({ commands: { allow: ['git status', 'npm test'] } });
  const table: [
    string,
    ReturnType<typeof tool>,
    Record<string, unknown>,
    Record<PermissionMode, Expected>,
  ][] = [
    [
      'read-only tool',
      read,
      {},
      { default: 'allow', 'accept-edits': 'allow', plan: 'allow', bypass: 'allow' },
    ],
    ['pure tool', grep, {}, { default: 'allow', 'accept-edits': 'allow', plan: 'allow', bypass: 'allow' }],
    [
      'MCP read-only hint',
      mcpReadOnly,
      {},
      { default: 'allow', 'accept-edits': 'allow', plan: 'allow', bypass: 'allow' },
    ],
    ['file edit', write, {}, { default: 'ask', 'accept-edits': 'allow', plan: 'deny', bypass: 'allow' }],
    ['network tool', fetchTool, {}, { default: 'ask', 'accept-edits': 'ask', plan: 'deny', bypass: 'allow' }],
    ['spawning tool', spawn, {}, { default: 'ask', 'accept-edits': 'ask', plan: 'deny', bypass: 'allow' }],
    [
      'MCP tool without hints (high)',
      mcpSilent,
      {},
      { default: 'ask', 'accept-edits': 'ask', plan: 'deny', bypass: 'allow' },
    ],
    [
      'MCP destructive hint (critical)',
      mcpDestructive,
      {},
      { default: 'ask', 'accept-edits': 'ask', plan: 'deny', bypass: 'allow' },
    ],
    [
      'shell command on the allow list',
      bash,
      { command: 'git status' },
      { default: 'allow', 'accept-edits': 'allow', plan: 'deny', bypass: 'allow' },
    ],
    [
      'shell command on no list',
      bash,
      { command: 'make build' },
      { default: 'ask', 'accept-edits': 'ask', plan: 'deny', bypass: 'allow' },
    ],
    [
      'shell write in the workspace',
      bash,
      { command: 'npm test > out.log' },
      { default: 'ask', 'accept-edits': 'allow', plan: 'deny', bypass: 'allow' },
    ],
    [
      'shell write outside the workspace',
      bash,
      { command: 'npm test > ~/test.log' },
      { default: 'ask', 'accept-edits': 'ask', plan: 'deny', bypass: 'allow' },
    ],
    [
      'shell write to a protected path',
      bash,
      { command: 'npm test > ~/.bashrc' },
      { default: 'ask', 'accept-edits': 'ask', plan: 'deny', bypass: 'ask' },
    ],
    [
      'shell construct not understood',
      bash,
      { command: 'bash <<EOF\nls\nEOF' },
      { default: 'ask', 'accept-edits': 'ask', plan: 'deny', bypass: 'ask' },
    ],
    [
      'shell default deny rule',
      bash,
      { command: 'git status && rm -rf /' },
      { default: 'deny', 'accept-edits': 'deny', plan: 'deny', bypass: 'deny' },
    ],
  ];
  for (const [title, target, args, expected] of table) {
    for (const mode of ['default', 'accept-edits', 'plan', 'bypass'] as const) {
      it(`${title} in ${mode} mode: ${expected[mode]}`, async () => {
        const decision = await policy.check(call(target, args, { mode, id: `modes-${mode}` }));
        expect(decision.decision, decision.reason).toBe(expected[mode]);
        expect(decision.mode).toBe(mode);
      });
    }
  }

  it('the config mode applies to sessions that name none', async () => {
    const planned = createPolicy({ mode: 'plan' });
    const decision = await planned.check(call(write, {}, { id: 'no-mode' }));
    expect(decision).toMatchObject({ decision: 'deny', code: 'DENIED', source: 'mode' });
    expect(decision.reason).toContain('plan mode');
  });

  it('a child session inherits its parent mode and never gets a more permissive one', async () => {
    const tree = createPolicy({});
    await tree.check(call(read, {}, { id: 'parent', mode: 'plan' }));
    const child = await tree.check(
      call(write, {}, { id: 'child', mode: 'bypass', parentId: 'parent', depth: 1 }),
    );
    expect(child.mode).toBe('plan');
    expect(child.decision).toBe('deny');
    const inherited = await tree.check(call(write, {}, { id: 'child-2', parentId: 'parent', depth: 1 }));
    expect(inherited.mode).toBe('plan');
    await tree.check(call(read, {}, { id: 'parent-2', mode: 'accept-edits' }));
    const narrower = await tree.check(
      call(write, {}, { id: 'child-3', mode: 'default', parentId: 'parent-2', depth: 1 }),
    );
    expect(narrower.mode).toBe('default');
    expect(narrower.decision).toBe('ask');
  });

  it('autoAllow and alwaysAsk lists', async () => {
    const lists = createPolicy({ autoAllow: ['web_fetch'], alwaysAsk: ['read'] });
    expect((await lists.check(call(fetchTool))).decision).toBe('allow');
    expect((await lists.check(call(read))).decision).toBe('ask');
    expect((await lists.check(call(fetchTool, {}, { mode: 'plan', id: 'p' }))).decision).toBe('deny');
  });

  it('a tool the pipeline hides is denied with the step that hid it', async () => {
    const narrow = createPolicy({ profile: 'minimal' });
    const decision = await narrow.check(call(read));
    expect(decision).toMatchObject({ decision: 'deny', code: 'DENIED', source: 'tool-list' });
    expect(decision.reason).toContain('profile');
  });

  it('a command argument that is not a string is INVALID_ARGUMENTS', async () => {
    const decision = await policy.check(call(bash, { command: ['rm', '-rf', '/'] }));
    expect(decision).toMatchObject({ decision: 'deny', code: 'INVALID_ARGUMENTS' });
    expect(decision.reason).toContain('"command"');
    expect((await policy.check(call(bash, {}))).code).toBe('INVALID_ARGUMENTS');
  });

  it('command deny and ask rules beat allow rules, with flags in any order', async () => {
    const strict = createPolicy({
      commands: { allow: ['git *', 'npm *'], deny: ['git push --force *'], ask: ['npm publish *'] },
    });
    const pushed = await strict.check(call(bash, { command: 'git push origin main --force' }));
    expect(pushed.decision).toBe('deny');
    expect(pushed.reason).toContain('git push --force *');
    expect((await strict.check(call(bash, { command: 'npm publish --tag next' }))).decision).toBe('ask');
    expect((await strict.check(call(bash, { command: 'git push origin main' }))).decision).toBe('allow');
    expect((await strict.check(call(bash, { command: 'git push "$REMOTE" $FLAGS' }))).decision).toBe('ask');
  });

  it('privileged commands need a rule written with their wrapper', async () => {
    const rules = createPolicy({ commands: { allow: ['rm *', 'sudo apt-get install *', 'bash *'] } });
    expect((await rules.check(call(bash, { command: 'rm notes.txt' }))).decision).toBe('allow');
    expect((await rules.check(call(bash, { command: 'sudo rm notes.txt' }))).decision).toBe('ask');
    expect((await rules.check(call(bash, { command: "sudo bash -c 'rm notes.txt'" }))).decision).toBe('ask');
    expect((await rules.check(call(bash, { command: 'sudo apt-get install -y jq' }))).decision).toBe('allow');
    expect((await rules.check(call(bash, { command: 'sudo -u root apt-get install jq' }))).decision).toBe(
      'ask',
    );
  });

  it('a command line over 64 KiB is asked without being parsed', async () => {
    const long = `echo ${'a'.repeat(70_000)}`;
    const decision = await createPolicy({ commands: { allow: ['echo *'] } }).check(
      call(bash, { command: long }),
    );
    expect(decision.decision).toBe('ask');
    expect(decision.reason).toContain('not analyzed');
  });

  it('suggests allow rules for the commands nothing covered', async () => {
    const decision = await policy.check(call(bash, { command: 'git push origin main && docker build .' }));
    expect(decision.decision).toBe('ask');
    expect(decision.suggestedRules).toEqual(['git push *', 'docker build *']);
  });

  it('disabling a default rule category is possible and explicit', async () => {
    const loose = createPolicy({ commands: { allow: ['reboot'], disableDefaultRules: ['system-control'] } });
    expect((await loose.check(call(bash, { command: 'reboot' }))).decision).toBe('allow');
  });

  it('shadow mode marks decisions instead of changing them', async () => {
    const shadow = createPolicy({ shadow: true, profile: 'minimal' });
    const decision = await shadow.check(call(read));
    expect(decision).toMatchObject({ decision: 'deny', shadow: true });
  });
});
