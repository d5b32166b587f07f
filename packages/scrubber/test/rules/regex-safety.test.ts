import { isSafePattern } from 'redos-detector';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { adversarialInputs } from '../../src/testing/adversarial.js';
import { ASSIGNMENT_PATTERNS } from '../../src/rules/assignment.js';
import { COMMAND_CREDENTIAL_PATTERNS } from '../../src/rules/command-credentials.js';
import { ENV_PAIR_PATTERNS } from '../../src/rules/env-pairs.js';
import { DEFAULT_RULES } from '../../src/rules/index.js';
import { MARKUP_PATTERNS } from '../../src/rules/markup.js';
import { SQL_PATTERNS } from '../../src/rules/sql.js';
import { PLACEHOLDER_PATTERNS } from '../../src/placeholder.js';
import { PEM_PATTERNS } from '../../src/rules/structured.js';
import { TRAILING_PATTERNS } from '../../src/trailing-decoration.js';
import { LIST_COMMAND_PATTERNS } from '../../src/rules/list-command.js';
import { ORACLE_PATTERNS } from '../../src/rules/oracle-connect.js';

/**
 * Bounded quantifiers become unbounded for the analysis: a pattern that can match one input in
 * only one way with `+`/`*` can do so with `{m,n}` too. Patterns run sticky, hence the `^`.
 */
function forAnalysis(pattern: RegExp): string {
  const source = pattern.source
    .replace(/\{0,\d+\}\??/g, '*')
    .replace(/\{\d+,\d*\}\??/g, '+')
    .replace(/\{\d+\}/g, '+');
  return `^(?:${source})`;
}

const patterns: [string, RegExp][] = [
  ...DEFAULT_RULES.filter((rule) => rule.pattern).map(
    (rule) => [rule.id, rule.pattern as RegExp] as [string, RegExp],
  ),
  ...LIST_COMMAND_PATTERNS.map(
    (pattern) => ['positional_credentials (list command)', pattern] as [string, RegExp],
  ),
  ...TRAILING_PATTERNS.map((pattern) => ['trailing decoration', pattern] as [string, RegExp]),
  ...PEM_PATTERNS.map((pattern) => ['private_key (matcher)', pattern] as [string, RegExp]),
  ...ASSIGNMENT_PATTERNS.map((pattern) => ['assignment (matcher)', pattern] as [string, RegExp]),
  ...ENV_PAIR_PATTERNS.map((pattern) => ['env_pair (matcher)', pattern] as [string, RegExp]),
  ...SQL_PATTERNS.map((pattern) => ['sql_password (matcher)', pattern] as [string, RegExp]),
  ...PLACEHOLDER_PATTERNS.map((pattern) => ['isPlaceholder', pattern] as [string, RegExp]),
  ...MARKUP_PATTERNS.map((pattern) => ['markup_credentials (matcher)', pattern] as [string, RegExp]),
  ...ORACLE_PATTERNS.map((pattern) => ['oracle_connect (matcher)', pattern] as [string, RegExp]),
  ...COMMAND_CREDENTIAL_PATTERNS.map(
    (pattern) => ['command_credentials (matcher)', pattern] as [string, RegExp],
  ),
];

describe('regex safety', () => {
  it.each(patterns)('%s: %s cannot backtrack catastrophically (redos-detector)', (_id, pattern) => {
    const verdict = isSafePattern(forAnalysis(pattern), {
      caseInsensitive: pattern.flags.includes('i'),
      // Wall time: on a loaded machine an analysis that takes 2 s alone can take over 20 s.
      timeout: 100_000,
    });
    expect(verdict.error).toBeNull();
    expect(verdict.safe).toBe(true);
  });

  it('the analysis does flag a catastrophic pattern (the check itself works)', () => {
    expect(isSafePattern(forAnalysis(/(?:[a-z]+)+!/), { timeout: 20_000 }).safe).toBe(false);
    expect(isSafePattern(forAnalysis(/x[a-z]{0,100}[a-z0-9]{0,100}y/), { timeout: 20_000 }).safe).toBe(false);
  });

  it('finishes on adversarial inputs against every anchor and matcher', () => {
    const scrubber = createScrubber({ secrets: ['aaaaaaaaaaaaaaab', 'AAAAAAAAAAAAAAAAB'] });
    const inputs = adversarialInputs(DEFAULT_RULES, 20_000);
    expect(inputs.length).toBeGreaterThan(500);
    for (const input of inputs) {
      const outcome = scrubber.scrub(input.text);
      if (outcome.findings.length === 0) expect(outcome.text, input.label).toBe(input.text);
      for (const finding of outcome.findings)
        expect(finding.end, input.label).toBeLessThanOrEqual(input.text.length);
    }
  });

  it('finishes on large context-rule attacks (repeated PEM headers, long key runs)', () => {
    const scrubber = createScrubber();
    const inputs = adversarialInputs(DEFAULT_RULES, 400_000).filter((input) => !input.label.includes(': '));
    expect(inputs.length).toBeGreaterThan(10);
    for (const input of inputs) expect(typeof scrubber.scrub(input.text).text, input.label).toBe('string');
  });
});
