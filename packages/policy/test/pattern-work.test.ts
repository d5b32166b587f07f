import { describe, expect, it } from 'vitest';
import { createPolicy } from '../src/index.js';
import { bash, call, tool, view } from './helpers.js';

/**
 * Name and command patterns with many `*` against long names and words: patterns are matched
 * piece by piece, in about linear time, so `a*a*a*a*a*a*a*a*b` against a 64-letter tool name (the
 * longest a public name may be), `*a*b*c` against a command word of 16,000 characters and a
 * pattern of 100,000 stars are decided at once (a regular expression with one `.*` per star
 * would backtrack for minutes, or fail to compile).
 */
describe('tool patterns with many stars', () => {
  const long = tool('a'.repeat(64));
  const registry = [tool('read', { sideEffect: 'read' }), long, tool('a_b_c_d_e_f_g_h_b')];

  it('a deny pattern of eight stars decides a 64-letter name', () => {
    const policy = createPolicy({ deny: ['a*a*a*a*a*a*a*a*b', 'x*y*z'] });
    const names = policy.filter([...registry, tool('aaaaaaaab')], view()).map((entry) => entry.name);
    expect(names).toEqual(['read', long.name, 'a_b_c_d_e_f_g_h_b']);
  });

  it('a pattern of 100,000 stars is a pattern of one and hides everything', () => {
    const policy = createPolicy({ deny: ['*'.repeat(100_000)] });
    expect(policy.filter(registry, view())).toEqual([]);
    expect(policy.explain('read', view()).decidedBy).toMatchObject({ step: 'deny' });
  });

  it.each([
    ['a?b*', ['a_b_c_d_e_f_g_h_b']],
    ['*_h_?', ['a_b_c_d_e_f_g_h_b']],
    ['*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*', [long.name]],
    ['a_*_*_*b', ['a_b_c_d_e_f_g_h_b']],
    ['?', []],
  ])('allow %j keeps %j', (pattern, kept) => {
    const policy = createPolicy({ allow: [pattern] });
    expect(policy.filter(registry.slice(1), view()).map((entry) => entry.name)).toEqual(kept);
  });
});

describe('command patterns with many stars against long words', () => {
  it('an allow rule with three stars in a token decides a 16,000-character word', async () => {
    const policy = createPolicy({ commands: { allow: ['echo *a*b*c', 'echo ok*'] } });
    const asked = await policy.check(
      call(bash, { command: `echo ${'ab'.repeat(8_000)}` }, { mode: 'bypass' }),
    );
    expect(asked.decision).toBe('allow');
    expect(asked.reason).toMatch(/bypass mode: no allow rule covers: echo/);
    const allowed = await policy.check(call(bash, { command: `echo ${'ab'.repeat(8_000)}c` }));
    expect(allowed.decision).toBe('allow');
    expect(allowed.reason).toMatch(/every command matches an allow rule/);
  });

  it('a deny rule with stars in a token decides a long URL', async () => {
    const policy = createPolicy({ commands: { allow: ['curl *'], deny: ['curl *://*.evil.example*'] } });
    const long = `https://${'x:'.repeat(20_000)}`;
    expect((await policy.check(call(bash, { command: `curl ${long}` }))).decision).toBe('allow');
    const denied = await policy.check(call(bash, { command: `curl ${long}.evil.example/x` }));
    expect(denied.decision).toBe('deny');
  });
});
