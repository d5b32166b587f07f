import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../src/index.js';
import { readTextCorpus } from './helpers/corpus.js';

const root = fileURLToPath(new URL('../../../node_modules/.pnpm', import.meta.url));
const BYTES = 24_000_000;

describe('false positives on ordinary text and code', () => {
  it('reports the findings in the repository node_modules text files (bounded sample)', () => {
    if (!existsSync(root)) {
      if (process.env.CI === 'true') throw new Error(`${root} is missing: run pnpm install first`);
      console.warn(`skipped: ${root} does not exist`);
      return;
    }
    const corpus = readTextCorpus(root, BYTES, 20_000);
    expect(corpus.text.length).toBeGreaterThan(1_000_000);
    const scrubber = createScrubber();
    const byKind = new Map<string, number>();
    const examples: string[] = [];
    let findings = 0;
    for (let offset = 0; offset < corpus.text.length; offset += 1_000_000) {
      const segment = corpus.text.slice(offset, offset + 1_000_000);
      for (const finding of scrubber.scrub(segment).findings) {
        findings++;
        byKind.set(finding.kind, (byKind.get(finding.kind) ?? 0) + 1);
        if (examples.length < 40)
          examples.push(
            `${finding.kind}: ${JSON.stringify(segment.slice(Math.max(0, finding.start - 40), finding.end + 10))}`,
          );
      }
    }
    const megabytes = corpus.text.length / 1e6;
    console.log(
      `false-positive scan: ${findings} findings in ${megabytes.toFixed(1)} MB (${corpus.files} files); by kind: ${JSON.stringify(Object.fromEntries(byKind))}`,
    );
    if (process.env.SCRUBBER_FP_EXAMPLES) console.log(examples.join('\n'));
    // Some hits are real credential-shaped test fixtures inside packages; the bound catches a
    // rule that starts firing on ordinary code.
    expect(findings / megabytes).toBeLessThan(2);
  });
});
