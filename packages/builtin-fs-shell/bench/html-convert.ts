// web_fetch's HTML conversion on hostile pages, against an ordinary page of paragraphs of the
// same size measured in the same run. Each page is timed at 1.25 MB and at 5 MB (the default
// byte cap): linear work takes about 4x as long for 4x the bytes.
// Run: npx tsx bench/html-convert.ts
import { performance } from 'node:perf_hooks';
import { median, result } from '@toolplane/bench';
import { htmlToReadable } from '../src/web/convert.js';

const pages: Record<string, (bytes: number) => string> = {
  paragraphs: (bytes) => '<p>Some words of a paragraph.</p>'.repeat(bytes / 32),
  'unclosed-divs': (bytes) => '<div>'.repeat(bytes / 5),
  'unmatched-end-tags': (bytes) => `${'<div>'.repeat(250)}${'</x>'.repeat(bytes / 4)}`,
  comments: (bytes) => '<!-- c -->w'.repeat(bytes / 11),
  'less-than': (bytes) => '<'.repeat(bytes),
  table: (bytes) => `<table>${'<tr><td>1</td><td>2</td></tr>'.repeat(bytes / 30)}</table>`,
  'line-breaks': (bytes) => '<br>'.repeat(bytes / 4),
  'markdown-characters': (bytes) => `<p>${'*_[]`\\'.repeat(bytes / 6)}</p>`,
};

function time(html: string): number {
  const samples: number[] = [];
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    htmlToReadable(html, 'markdown', 100_000);
    samples.push(performance.now() - started);
  }
  return median(samples);
}

const SMALL = 1_250_000;
const LARGE = 5_000_000;
const baseline = time(pages.paragraphs?.(LARGE) ?? '');
for (const [name, make] of Object.entries(pages)) {
  const small = time(make(SMALL));
  const large = time(make(LARGE));
  result(`builtin-fs-shell/html-convert-${name}-5MB`, large, 'ms', {
    baseline: 'paragraphs-5MB',
    ratio: large / baseline,
  });
  result(`builtin-fs-shell/html-convert-${name}-growth`, large / small, 'x', {
    baseline: 'linear',
    ratio: large / small / 4,
  });
}
