// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, expect, it } from 'vitest';
import { type Case, deviceWritePolicy } from './device-write-cases.js';

/**
 * What an eighth sweep (nesting depth, hostile names, huge counts) found open. Judged in bypass
 * mode under generous allow rules, where anything neither denied nor asked runs; each verdict was
 * checked against what bash 5.2 does with the line; near misses stay as they were.
 */
const { expectVerdict, inBypass, allowedInDefault } = deviceWritePolicy('left-8-sweep', ['rm *', 'ls *']);
const RM = /^destructive-file-operation: rm with recursive and force flags/;

describe('runs of ! before a command', () => {
  // bash negates the status once per `!` and runs the command after them; the grammar reads a
  // second `!` as a command name, and every parse again removed only one mark.
  it.each<Case>([
    ['! ! ! ! ! ! rm -rf /', 'deny', RM],
    ['! ! ! ! ! ! ! ! { rm -rf /; }', 'deny', RM],
    ['true && ! ! ! ! ! ! ! rm -rf / || true', 'deny', RM],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it('2,000 marks before rm -rf / still deny it', async () =>
    expectVerdict([`${'! '.repeat(2000)}rm -rf /`, 'deny', RM]));

  it.each(['! ! ! ! ! ! ! ls -l', '! ! ls'])('%j stays allowed', allowedInDefault);
});

describe('braces nested thousands deep', () => {
  // Each level of `{a,{a,...}}` was scanned again and expanded by one more call: 16,000 levels
  // took half a minute and ended in a stack overflow; a `{` left open was scanned to the end of
  // the word again for every one. Past 64 levels the line is asked, at once.
  it('a brace expansion 16,000 levels deep is asked with the bound named', async () => {
    const decision = await inBypass(`echo ${'{a,'.repeat(16_000)}b${'}'.repeat(16_000)}`);
    expect(decision.decision).toBe('ask');
    expect(decision.reason).toMatch(/nests deeper than 64 levels/);
  });

  it('20,000 braces left open do not hide the command after them', async () => {
    const decision = await inBypass(`echo ${'{'.repeat(20_000)}; rm -rf /`);
    expect(decision.decision).toBe('deny');
    expect(decision.reason).toMatch(RM);
  });

  it.each(['echo {a,{b,{c,d}}}', `echo ${'{a,'.repeat(60)}b${'}'.repeat(60)}`])(
    '%j stays allowed',
    allowedInDefault,
  );
});
