import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/index.js';
import { type Case, bash, call, writerPolicy } from '../helpers.js';

/**
 * Fork bombs: a function that calls itself, and functions that call each other in a cycle under
 * any names; functions that only call other functions or the builtin of their name stay allowed.
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const { expectVerdict, inBypass } = writerPolicy('fork-bombs');

describe('fork bombs under any names', () => {
  const BOMB = /^fork-bomb: /;
  it.each<Case>([
    ['a(){ b|b& }; b(){ a|a& }; a', 'deny', BOMB],
    ['a(){ b & }; b(){ c & }; c(){ a|a & }; a', 'deny', BOMB],
    ['function a { b|b& }; function b { a|a& }; a', 'deny', BOMB],
    ['a(){ b(){ a|a& }; b; }; a', 'deny', BOMB],
    ['a(){ eval "b|b&"; }; b(){ a|a& }; a', 'deny', BOMB],
    ['a(){ $(b) & }; b(){ a|a& }; a', 'deny', BOMB],
    ['bomb(){ bomb|bomb& }; bomb', 'deny', BOMB],
    ['.(){ .|.& };.', 'deny', BOMB],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it('names the functions that call each other', async () => {
    const decision = await inBypass('ping(){ pong|pong& }; pong(){ ping|ping& }; ping');
    expect(decision.reason).toMatch(/ping -> pong -> ping|pong -> ping -> pong/);
  });

  it('a call graph of many functions is judged in time, and a cycle at its end is found', async () => {
    const chain = Array.from({ length: 2000 }, (_, index) => `f${index}(){ f${index + 1}; }`).join('; ');
    expect((await inBypass(`${chain}; f2000(){ true; }; f0`)).decision).toBe('allow');
    const cycle = await inBypass(`${chain}; f2000(){ f0 & }; f0`);
    expect(cycle.decision).toBe('deny');
    expect(cycle.reason).toMatch(/^fork-bomb: /);
  }, 60_000);

  it.each([
    'a(){ echo a; }; b(){ a; a; }; b',
    'ls(){ command ls -F "$@"; }; ls',
    'cd(){ builtin cd "$@" && ls; }; cd src',
  ])('%j stays allowed', async (command) => {
    const strict = createPolicy({ commands: { allow: ['echo *', 'ls *', 'cd *', 'a', 'b', 'true'] } });
    const decision = await strict.check(call(bash, { command }, { mode: 'bypass' }));
    expect(decision.decision, decision.reason).toBe('allow');
  });
});
