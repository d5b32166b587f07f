import { describe, expect, it } from 'vitest';
import { MAX_README_LINES, readmeProblems } from '../src/readmes.mjs';

const lines = (count: number): string =>
  `${Array.from({ length: count }, (_, i) => `line ${i}`).join('\n')}\n`;

describe('readmeProblems', () => {
  it(`accepts ${MAX_README_LINES} lines and refuses one more`, () => {
    expect(readmeProblems(lines(MAX_README_LINES))).toEqual([]);
    const problems = readmeProblems(lines(MAX_README_LINES + 1));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.problem).toMatch(/401 lines, over 400/);
  });

  it.each([
    ['a comparison with earlier code', 'A call costs 2 us (before: 9 us).'],
    ['a "before:" note', 'Closing is idempotent; before: it threw.'],
    ['a review round', 'Found in the ninth round of review.'],
    ['a round by number', 'Tests added in the 3rd round cover it.'],
    ['a sweep', 'After the bad-input sweep the parser refuses it.'],
    ['what a review left alone', 'Issues left alone: none.'],
    ['a load average', 'Measured at a load average of 2.'],
    ['an issue number', 'As issue 5 asks, reads are bounded.'],
    ['earlier behaviour', 'This test fails on the old code.'],
    ['a commit hash', 'Fixed in 92d7584 with a new guard.'],
  ])('reports %s with its line number', (_what, line) => {
    expect(readmeProblems(`# pkg\n\n${line}\n`)).toEqual([{ line: 3, problem: expect.any(String) }]);
  });

  it('leaves words that only contain the patterns, code blocks and inline code alone', () => {
    const text = [
      '# pkg',
      'Background tasks answer a ping with its round trip; results are rounded to 1 ms.',
      'The key used to sign a request is no longer than 64 bytes.',
      'Names end with an 8-hex hash such as `3fa9c2d1e`.',
      '```sh',
      'git log before: 92d7584',
      '```',
      'A sweeping change is not a sweep... unless it says so.',
    ].join('\n');
    const problems = readmeProblems(text);
    expect(problems).toEqual([{ line: 8, problem: expect.any(String) }]);
  });
});
