// web_fetch's HTML conversion on hostile pages, against an ordinary page of paragraphs of the
// same size measured in the same run. Each page is timed at 1.25 MB and at 5 MB (the default
// byte cap): linear work takes about 4x as long for 4x the bytes. The conversion runs in
// slices with a turn of the event loop between them: how long the loop waited during a 5 MB
// conversion (99th percentile) is printed too, against the same page converted in one slice
// (as before slicing, when the loop waited that whole time).
// Run: npx tsx bench/html-convert.ts
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { median, result } from '@toolplane/bench';
import { htmlToReadable } from '../src/web/convert.js';
import { createHtmlConverter } from '../src/web/html-to-text.js';

const pages: Record<string, (bytes: number) => string> = {
  paragraphs: (bytes) => '<p>Some words of a paragraph.</p>'.repeat(bytes / 32),
  'unclosed-divs': (bytes) => '<div>'.repeat(bytes / 5),
  'unmatched-end-tags': (bytes) => `${'<div>'.repeat(250)}${'</x>'.repeat(bytes / 4)}`,
  comments: (bytes) => '<!-- c -->w'.repeat(bytes / 11),
  'less-than': (bytes) => '<'.repeat(bytes),
  table: (bytes) => `<table>${'<tr><td>1</td><td>2</td></tr>'.repeat(bytes / 30)}</table>`,
  'line-breaks': (bytes) => '<br>'.repeat(bytes / 4),
  'markdown-characters': (bytes) => `<p>${'*_[]`\\'.repeat(bytes / 6)}</p>`,
  words: (bytes) => 'word '.repeat(bytes / 5),
  'one-word': (bytes) => 'x'.repeat(bytes),
};

const signal = new AbortController().signal;

/** Median time of three conversions, and the 99th percentile of the event-loop delay during them. */
async function time(html: string): Promise<{ ms: number; delayMs: number }> {
  const samples: number[] = [];
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    await htmlToReadable(html, 'markdown', 100_000, signal);
    samples.push(performance.now() - started);
  }
  histogram.disable();
  return { ms: median(samples), delayMs: histogram.percentile(99) / 1e6 };
}

/** The same page converted in one slice, as before slicing: the delay it holds the loop. */
function wholeMs(html: string): number {
  const started = performance.now();
  const converter = createHtmlConverter(true, 100_000);
  converter.write(html);
  while (converter.writeSome());
  converter.end();
  return performance.now() - started;
}

const SMALL = 1_250_000;
const LARGE = 5_000_000;
const baseline = (await time(pages.paragraphs?.(LARGE) ?? '')).ms;
for (const [name, make] of Object.entries(pages)) {
  const small = await time(make(SMALL));
  const large = await time(make(LARGE));
  result(`builtin-fs-shell/html-convert-${name}-5MB`, large.ms, 'ms', {
    baseline: 'paragraphs-5MB',
    ratio: large.ms / baseline,
  });
  result(`builtin-fs-shell/html-convert-${name}-growth`, large.ms / small.ms, 'x', {
    baseline: 'linear',
    ratio: large.ms / small.ms / 4,
  });
  const whole = wholeMs(make(LARGE));
  result(`builtin-fs-shell/html-convert-${name}-5MB-loop-delay-p99`, large.delayMs, 'ms', {
    baseline: 'one-slice',
    ratio: large.delayMs / whole,
  });
}
