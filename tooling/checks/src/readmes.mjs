// What a package README may not be: longer than a reader will read, or a log of how the code got
// here. History belongs in git; a README documents the package as it is now (CONTRIBUTING.md).
import { readFile } from 'node:fs/promises';

/** The most lines a package README may have; about 300 is the aim. */
export const MAX_README_LINES = 400;

/** Forms that tell history instead of behaviour, each with what to write instead. */
const HISTORY = [
  { pattern: /\(before[:,]|\bbefore:/i, says: 'compares with earlier code ("before: ...")' },
  { pattern: /\bleft alone\b/i, says: 'reports what a review left alone' },
  { pattern: /\bsweeps?\b/i, says: 'names a review sweep' },
  {
    pattern:
      /\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|next|review|\d+(?:st|nd|rd|th))\s+rounds?\b/i,
    says: 'names a review round',
  },
  { pattern: /\bload average\b/i, says: 'reports the load of the machine a run was made on' },
  { pattern: /\bissue\s+#?\d+\b/i, says: 'refers to an issue instead of stating the behaviour' },
  { pattern: /\b(?:failed|fails) on the old code\b/i, says: 'describes what the code did earlier' },
  {
    pattern: /(?<![\w`/#-])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w`/-])/,
    says: 'quotes a commit hash',
  },
];

/**
 * The problems of one README: its length past {@link MAX_README_LINES}, and each line (outside
 * fenced code blocks and inline code) that tells history.
 * @param {string} text
 * @returns {{ line?: number, problem: string }[]}
 */
export function readmeProblems(text) {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  /** @type {{ line?: number, problem: string }[]} */
  const problems = [];
  if (lines.length > MAX_README_LINES) {
    problems.push({
      problem: `${lines.length} lines, over ${MAX_README_LINES}: move long references to the package's docs/ and link them`,
    });
  }
  let fenced = false;
  lines.forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    const prose = line.replace(/`[^`]*`/g, '``');
    for (const { pattern, says } of HISTORY) {
      if (pattern.test(prose)) {
        problems.push({ line: index + 1, problem: `${says}: state the current behaviour instead` });
        break;
      }
    }
  });
  return problems;
}

/**
 * Reads a README and returns its problems.
 * @param {string} file
 */
export async function checkReadme(file) {
  return readmeProblems(await readFile(file, 'utf8'));
}
