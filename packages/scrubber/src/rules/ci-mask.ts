import { ALPHABETS } from '../alphabets.js';
import { isPlaceholder } from '../placeholder.js';
import type { RuleMatch, SecretRule } from '../types.js';

// GitHub Actions' `::add-mask::VALUE` workflow command says that VALUE is a secret: the runner
// hides it in later log lines, but the command itself is printed by a script run elsewhere (a
// local `act` run, `bash -x`, a copied log) with the value in the clear.

const ANCHOR = '::add-mask::';
const MAX_VALUE = 512;
const MIN_VALUE = 4;

function matchMask(text: string, anchor: number): RuleMatch | undefined {
  const start = anchor + ANCHOR.length;
  let end = start;
  while (end < text.length && end - start <= MAX_VALUE) {
    const code = text.charCodeAt(end);
    if (code === 10 || code === 13) break;
    end++;
  }
  if (end - start > MAX_VALUE) return undefined;
  // `echo '::add-mask::VALUE'` as `bash -x` prints it: the command's closing quote is not the value's.
  const opening = text.charCodeAt(anchor - 1);
  if ((opening === 39 || opening === 34) && text.charCodeAt(end - 1) === opening) end--;
  while (end > start && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
  const value = text.slice(start, end);
  // `::add-mask::$TOKEN`, `::add-mask::${{ secrets.X }}` in a workflow file name the value, not give it.
  if (end - start < MIN_VALUE || isPlaceholder(value) || value.includes('${{')) return undefined;
  return { start, end, kind: 'secret' };
}

/** The value of GitHub Actions' `::add-mask::` command. */
export const ciMask: SecretRule = {
  id: 'ci_mask',
  description:
    "The value of GitHub Actions' ::add-mask:: workflow command (a value the workflow declared secret)",
  anchors: [ANCHOR],
  match: matchMask,
  maxLength: ANCHOR.length + MAX_VALUE,
  positives: (fake) => {
    const value = fake.chars(ALPHABETS.alnum, 32);
    return [
      { text: `::add-mask::${value}\n`, secret: value, kind: 'secret' },
      { text: `+ echo '::add-mask::${value}'\n::add-mask::***\n`, secret: value, kind: 'secret' },
    ];
  },
  negatives: () => [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression is the sample
    'echo "::add-mask::${{ secrets.DEPLOY_TOKEN }}"',
    'echo "::add-mask::$DEPLOY_TOKEN"',
    '::add-mask::***',
  ],
};
