import { describe, expect, it } from 'vitest';
import { createScrubber } from '../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../src/testing/fake.js';

// A stream keeps only a bounded window of text. A Kubernetes Secret whose values run past that
// window (many keys, or one value of megabytes on one line) must still be redacted to its end,
// and the text the stream holds must stay bounded however long a value is.

const fake = createFakeSource();
const scrubber = createScrubber();
const value = (length = 60) => fake.chars(ALPHABETS.base64, length);

function streamAll(text: string, cut: number): string {
  const stream = scrubber.createStreamScrubber();
  const parts: string[] = [];
  for (let at = 0; at < text.length; at += cut) parts.push(stream.write(text.slice(at, at + cut)));
  parts.push(stream.flush());
  return parts.join('');
}

function manyKeysYaml(keys: number): string {
  const lines = ['apiVersion: v1', 'kind: Secret', 'metadata:', '  name: app-env', 'type: Opaque', 'data:'];
  for (let i = 0; i < keys; i++) lines.push(`  KEY_${i}: ${value()}`);
  lines.push('stringData:', `  username: ${value(20)}`, '---', 'apiVersion: v1', 'kind: ConfigMap', 'data:');
  lines.push('  LOG_LEVEL: debug', '  MODE: fast-and-loose', '');
  return lines.join('\n');
}

describe('a stream through a Secret longer than its window', () => {
  it('redacts every value of a YAML Secret of 400 keys (28 KB after its kind), as one-shot does', () => {
    const manifest = manyKeysYaml(400);
    const expected = scrubber.scrub(manifest).text;
    expect(expected.match(/\[REDACTED:secret\]/g)).toHaveLength(401);
    expect(expected).toContain('LOG_LEVEL: debug');
    for (const cut of [64, 4096, 65_536]) expect(streamAll(manifest, cut), `chunks of ${cut}`).toBe(expected);
  });

  it('redacts every value of a pretty-printed JSON Secret of 400 keys, as one-shot does', () => {
    const data = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`K${i}`, value()]));
    const json = `${JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' }, data }, null, 2)}\n${JSON.stringify({ kind: 'ConfigMap', data: { mode: 'fast-and-loose' } })}\n`;
    const expected = scrubber.scrub(json).text;
    expect(expected.match(/\[REDACTED:secret\]/g)).toHaveLength(400);
    expect(expected).toContain('"mode":"fast-and-loose"');
    for (const cut of [64, 4096, 65_536]) expect(streamAll(json, cut), `chunks of ${cut}`).toBe(expected);
  });

  it('redacts one value of 1 MB on one line (YAML plain, YAML quoted, JSON) and the values after it', () => {
    const big = value(1 << 20);
    const after = value(40);
    const texts = [
      `apiVersion: v1\nkind: Secret\ndata:\n  big: ${big}\n  small: ${after}\nmetadata:\n  name: x\n`,
      `kind: Secret\nstringData:\n  "big": "${big}" # comment\n  small: '${after}'\n`,
      `{"kind":"Secret","data":{"big":"${big}","small":"${after}"},"metadata":{"name":"x"}}\n`,
    ];
    for (const text of texts) {
      const expected = scrubber.scrub(text).text;
      expect(expected.match(/\[REDACTED:secret\]/g)).toHaveLength(2);
      for (const cut of [1000, 65_536]) {
        const out = streamAll(text, cut);
        expect(out.length, `chunks of ${cut}`).toBe(expected.length);
        expect(out, `chunks of ${cut}`).toBe(expected);
      }
    }
  });

  it('redacts a block scalar value of 40 KB over many lines', () => {
    const block = Array.from({ length: 600 }, () => `    ${value(64)}`).join('\n');
    const text = `kind: Secret\nstringData:\n  config.pem: |\n${block}\n  other: ${value(30)}\ntype: Opaque\n`;
    const expected = scrubber.scrub(text).text;
    expect(expected.match(/\[REDACTED:secret\]/g)).toHaveLength(2);
    for (const cut of [100, 65_536]) expect(streamAll(text, cut), `chunks of ${cut}`).toBe(expected);
  });

  it('holds a bounded amount of a 64 MB value written without a line break', () => {
    const stream = scrubber.createStreamScrubber();
    const head = 'apiVersion: v1\nkind: Secret\ndata:\n  dump: ';
    const chunk = value(65_536);
    let written = 0;
    let out = stream.write(head);
    written += head.length;
    let mostHeld = 0;
    for (let i = 0; i < 1024; i++) {
      out += stream.write(chunk);
      written += chunk.length;
      // What the stream has let go of: the end of its last finding (the redacted value so far).
      const released = stream.findings.reduce((most, finding) => Math.max(most, finding.end), head.length);
      mostHeld = Math.max(mostHeld, written - released);
    }
    out += stream.write('\n  next: short-but-secret-value\n') + stream.flush();
    expect(mostHeld).toBeLessThan(1 << 20);
    expect(out).toBe(
      'apiVersion: v1\nkind: Secret\ndata:\n  dump: [REDACTED:secret]\n  next: [REDACTED:secret]\n',
    );
    expect(stream.findings.length).toBeLessThan(3);
  });

  it('redacts a value still open where a cut-off output ends (JSON, quoted YAML), one-shot', () => {
    const secret = value(48);
    expect(scrubber.scrub(`{"kind":"Secret","data":{"token":"${secret}`).text).toBe(
      '{"kind":"Secret","data":{"token":"[REDACTED:secret]',
    );
    expect(scrubber.scrub(`kind: Secret\nstringData:\n  token: "${secret}`).text).toBe(
      'kind: Secret\nstringData:\n  token: "[REDACTED:secret]',
    );
  });

  it('streams a Secret whose values repeat `kind: Secret` thousands of times as one-shot does', () => {
    const text = 'kind: Secret\ndata:\n  k: '.repeat(8_000);
    const expected = scrubber.scrub(text).text;
    for (const cut of [64, 65_536]) expect(streamAll(text, cut), `chunks of ${cut}`).toBe(expected);
  });

  it('leaves a ConfigMap after a long Secret alone, and does not carry a closed Secret into it', () => {
    const text = `${manyKeysYaml(300)}kind: ConfigMap\ndata:\n${Array.from({ length: 300 }, (_, i) => `  SETTING_${i}: plain-value-${i}`).join('\n')}\n`;
    const expected = scrubber.scrub(text).text;
    expect(expected).toContain('SETTING_299: plain-value-299');
    for (const cut of [64, 65_536]) expect(streamAll(text, cut), `chunks of ${cut}`).toBe(expected);
  });
});
