// Throughput of @toolplane/scrubber on 100 MB of mixed text/code/JSON with secrets sprinkled in,
// against a naive baseline (every pattern in turn with String.replace) and secretlint's core.
// Run: pnpm --filter @toolplane/scrubber bench   (BENCH_MB=20 for a quicker run)
import { fileURLToPath } from 'node:url';
import { lintSource } from '@secretlint/core';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import { result } from '@toolplane/bench';
import { DEFAULT_RULES, createScrubber, secretVariants } from '../src/index.js';
import { adversarialInputs, createFakeSource } from '../src/testing/index.js';
import { createLiteralSearcher } from '../src/wu-manber.js';
import { readTextCorpus } from '../test/helpers/corpus.js';
import { ruleCosts, wholeTextReports, withoutCandidates } from './rule-costs.js';

const TOTAL_MB = Number(process.env.BENCH_MB ?? 100);
const SEGMENT = 1_000_000; // a large tool output
const SECRETLINT_MB = Math.min(TOTAL_MB, Number(process.env.BENCH_SECRETLINT_MB ?? 8));
const fake = createFakeSource();
const root = fileURLToPath(new URL('../../../node_modules/.pnpm', import.meta.url));

// --- corpus -------------------------------------------------------------------------------
const base = readTextCorpus(root, 40_000_000);
const heldSecrets = [
  fake.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 40),
  `${fake.chars('abcdef0123456789', 32)}`,
  `Bearer-${fake.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 24)}`,
  fake.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', 44),
];
const inserted: string[] = [];
const pieces: string[] = [];
let length = 0;
let cursor = 0;
const target = TOTAL_MB * 1_000_000;
let round = 0;
while (length < target) {
  const step = 40_000 + ((round * 7919) % 30_000);
  let piece = base.text.slice(cursor, cursor + step);
  cursor = (cursor + step) % Math.max(1, base.text.length - step);
  const rule = DEFAULT_RULES[round % DEFAULT_RULES.length]!;
  const samples = rule.positives(fake);
  const sample = samples[round % samples.length]!;
  inserted.push(sample.secret);
  piece += `\n${sample.text}\n`;
  if (round % 10 === 0) {
    const secret = heldSecrets[round % heldSecrets.length]!;
    const variants = secretVariants(secret, 8);
    const variant = variants[round % variants.length]!.literal;
    inserted.push(variant);
    piece += `echo ${variant}\n`;
  }
  pieces.push(piece);
  length += piece.length;
  round++;
}
const corpus = pieces.join('').slice(0, target);
const segments: string[] = [];
// Fresh flat strings, like tool output decoded from a Buffer (not views into one big string).
// Segments end at a line end, as tool outputs do (a cut inside a line could separate a key from its value).
for (let i = 0; i < corpus.length; ) {
  const lineEnd = corpus.indexOf('\n', i + SEGMENT);
  const end = lineEnd === -1 ? corpus.length : lineEnd + 1;
  segments.push(Buffer.from(corpus.slice(i, end)).toString());
  i = end;
}
const megabytes = corpus.length / 1e6;
console.log(
  `corpus: ${megabytes.toFixed(0)} MB from ${base.files} node_modules files (${(base.text.length / 1e6).toFixed(0)} MB distinct), ${inserted.length} secrets inserted, ${segments.length} segments of about 1 MB`,
);

/** CPU milliseconds of this process (user + system): single-core cost, robust on a shared machine. */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Best of `runs` (after a warm-up run) by CPU time; wall time is printed alongside. */
function time(label: string, fn: () => number, runs = 3): { mbps: number; value: number } {
  fn(); // warm-up
  let best = Number.POSITIVE_INFINITY;
  let wall = Number.POSITIVE_INFINITY;
  let value = 0;
  for (let run = 0; run < runs; run++) {
    const startCpu = cpuMs();
    const startWall = performance.now();
    value = fn();
    best = Math.min(best, cpuMs() - startCpu);
    wall = Math.min(wall, performance.now() - startWall);
  }
  const mbps = megabytes / (best / 1000);
  console.log(
    `${label.padEnd(34)} ${mbps.toFixed(1).padStart(8)} MB/s  (cpu ${best.toFixed(0)} ms, wall ${wall.toFixed(0)} ms, value ${value})`,
  );
  return { mbps, value };
}

/** How many inserted secrets survive in the outputs (one Wu-Manber pass, not one search per secret). */
function leaked(outputs: readonly string[]): number {
  const searcher = createLiteralSearcher(inserted);
  const survivors = new Set<number>();
  for (const output of outputs) searcher.search(output, (hit) => survivors.add(hit.literalIndex));
  return survivors.size;
}

// --- @toolplane/scrubber ------------------------------------------------------------------
const scrubber = createScrubber({ secrets: heldSecrets });
let ours: string[] = [];
const mine = time('toolplane scrubber', () => {
  ours = segments.map((segment) => scrubber.scrub(segment).text);
  return ours.length;
});
console.log(`  inserted secrets still present: ${leaked(ours)} of ${inserted.length}`);

// The same text as 64 KB chunks, each a fresh string as a stream decoder would produce.
const chunks: string[] = [];
for (const segment of segments) {
  for (let i = 0; i < segment.length; i += 65_536)
    chunks.push(Buffer.from(segment.slice(i, i + 65_536)).toString());
}
const stream = time('toolplane stream (64 KB chunks)', () => {
  const streamScrubber = scrubber.createStreamScrubber();
  let out = 0;
  for (const chunk of chunks) out += streamScrubber.write(chunk).length;
  return out + streamScrubber.flush().length;
});

{
  const streamScrubber = scrubber.createStreamScrubber();
  const parts = chunks.map((chunk) => streamScrubber.write(chunk));
  parts.push(streamScrubber.flush());
  console.log(
    `  inserted secrets still present in the stream output: ${leaked(parts)} of ${inserted.length}`,
  );
}

const many = createScrubber({
  secrets: Array.from({ length: 64 }, () => fake.chars('abcdefghijklmnopqrstuvwxyz0123456789', 32)),
});
const manySecrets = time(
  'toolplane, 64 held secrets',
  () => segments.map((s) => many.scrub(s).text).length,
  1,
);

// --- naive baseline -----------------------------------------------------------------------
const naivePatterns: [RegExp, string][] = [];
for (const rule of DEFAULT_RULES) {
  if (rule.pattern) naivePatterns.push([new RegExp(rule.pattern.source, 'g'), `[REDACTED:${rule.id}]`]);
}
naivePatterns.push([
  /-----BEGIN[A-Z ]{0,40}PRIVATE KEY-----[\s\S]{0,16384}?-----END[A-Z ]{0,40}PRIVATE KEY-----/g,
  '[REDACTED:private_key]',
]);
naivePatterns.push([
  /((?:api[_-]?key|token|secret|passw(?:or)?d|pwd|bearer|authorization)["']?\s{0,8}[:=]\s{0,8}["']?)[^\s"',;]{4,512}/gi,
  '$1[REDACTED:assignment]',
]);
const naiveSecrets = heldSecrets.flatMap((secret) =>
  secretVariants(secret, 8).map((variant) => variant.literal),
);
let naiveOut: string[] = [];
const naive = time(
  'naive: each pattern with replace',
  () => {
    naiveOut = segments.map((segment) => {
      let text = segment;
      for (const [pattern, replacement] of naivePatterns) text = text.replace(pattern, replacement);
      for (const literal of naiveSecrets) text = text.replaceAll(literal, '[REDACTED:secret]');
      return text;
    });
    return naiveOut.length;
  },
  1,
);
console.log(`  inserted secrets still present: ${leaked(naiveOut)} of ${inserted.length}`);

// --- secretlint core (on a prefix: it is much slower) --------------------------------------
const secretlintSegments = segments.slice(0, Math.max(1, Math.round(SECRETLINT_MB)));
let secretlintMessages = 0;
const secretlintStart = cpuMs();
for (const segment of secretlintSegments) {
  const report = await lintSource({
    source: { filePath: '/bench.txt', content: segment, contentType: 'text' },
    options: {
      config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommendedPreset }] },
      noPhysicFilePath: true,
    },
  });
  secretlintMessages += report.messages.length;
}
const secretlintMs = cpuMs() - secretlintStart;
const secretlintMbps = secretlintSegments.reduce((sum, s) => sum + s.length, 0) / 1e6 / (secretlintMs / 1000);
console.log(
  `${'secretlint core + preset-recommend'.padEnd(34)} ${secretlintMbps.toFixed(1).padStart(8)} MB/s  (${secretlintSegments.length} MB, ${secretlintMessages} findings)`,
);

// --- adversarial inputs ---------------------------------------------------------------------
const adversarialLength = Number(process.env.BENCH_ADVERSARIAL_KB ?? 256) * 1000;
let worst = { label: '', ms: 0 };
let adversarialTotal = 0;
const inputs = adversarialLength > 0 ? adversarialInputs(DEFAULT_RULES, adversarialLength) : [];
for (const input of inputs) {
  const start = cpuMs();
  scrubber.scrub(input.text);
  const ms = cpuMs() - start;
  adversarialTotal += ms;
  if (ms > worst.ms) worst = { label: input.label, ms };
}
console.log(
  `adversarial: ${inputs.length} inputs of ${adversarialLength / 1000} KB in ${adversarialTotal.toFixed(0)} ms; worst ${worst.ms.toFixed(1)} ms (${worst.label})`,
);

// --- per-rule cost --------------------------------------------------------------------------
const costSegments = segments.slice(0, Math.min(segments.length, 20));
const costMb = costSegments.reduce((sum, s) => sum + s.length, 0) / 1e6;
const { costs, passMs, totalMs } = ruleCosts(DEFAULT_RULES, costSegments);
console.log(
  `rule cost on ${costMb.toFixed(0)} MB (wall ms; the shared pass ${passMs.toFixed(0)} ms, scan in all ${totalMs.toFixed(0)} ms):`,
);
for (const cost of costs.filter((one) => one.milliseconds >= 0.05))
  console.log(
    `  ${cost.id.padEnd(24)} ${cost.milliseconds.toFixed(1).padStart(7)} ms  ${String(cost.candidates).padStart(8)} candidates`,
  );

// --- no rule reads the whole text on its own ------------------------------------------------
const large = withoutCandidates(DEFAULT_RULES, base.text.slice(0, 4_000_000));
const small = large.slice(0, 1_000_000);
const reports = wholeTextReports(
  DEFAULT_RULES,
  (rules, text) => {
    const watchedScrubber = createScrubber({ rules, secrets: heldSecrets });
    watchedScrubber.scrub(text);
    const watchedStream = watchedScrubber.createStreamScrubber();
    for (let i = 0; i < text.length; i += 65_536) watchedStream.write(text.slice(i, i + 65_536));
    watchedStream.flush();
  },
  small,
  large,
);
const offenders = reports.filter(
  (report) =>
    report.calls > 0 || (report.hooksMsLarge > 2 && report.hooksMsLarge > 2.5 * report.hooksMsSmall),
);
console.log(
  `whole-text check: ${DEFAULT_RULES.length} rules on ${(large.length / 1e6).toFixed(1)} MB without candidates (one-shot and streamed): ${offenders.length === 0 ? 'no rule called, stream hooks bounded' : `${offenders.length} rules read the text on their own`}`,
);
for (const report of offenders)
  console.error(
    `FAIL ${report.id}: called ${report.calls} times on a text with none of its anchors; its openFrom/carry took ${report.hooksMsSmall.toFixed(1)} ms on ${(small.length / 1e6).toFixed(1)} MB and ${report.hooksMsLarge.toFixed(1)} ms on ${(large.length / 1e6).toFixed(1)} MB. A rule must do its work only at the candidates of its anchors (see src/scan/), and a stream hook only near the text's end.`,
  );
if (offenders.length > 0) process.exitCode = 1;

result('scrubber/throughput', mine.mbps, 'MB/s', {
  baseline: 'naive-replace',
  ratio: mine.mbps / naive.mbps,
});
result('scrubber/throughput-vs-secretlint', mine.mbps, 'MB/s', {
  baseline: 'secretlint-core',
  ratio: mine.mbps / secretlintMbps,
});
result('scrubber/naive-replace', naive.mbps, 'MB/s');
result('scrubber/secretlint-core', secretlintMbps, 'MB/s');
result('scrubber/stream-64k-chunks', stream.mbps, 'MB/s', {
  baseline: 'one-shot',
  ratio: stream.mbps / mine.mbps,
});
result('scrubber/64-held-secrets', manySecrets.mbps, 'MB/s', {
  baseline: '4-held-secrets',
  ratio: manySecrets.mbps / mine.mbps,
});
result(`scrubber/adversarial-worst-${adversarialLength / 1000}kb`, worst.ms, 'ms');
