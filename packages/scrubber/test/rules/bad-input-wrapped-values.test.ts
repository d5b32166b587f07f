import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

const fake = createFakeSource();
const password = `${fake.chars(ALPHABETS.alnum, 14)}7`;
const token = fake.chars(ALPHABETS.alnum, 32);
const scrubber = createScrubber();

// JSON and JSON-like output where a pretty-printer or a narrow terminal put a line break between a
// credential key and its (quoted) value.

const wrapped = (newline: string) =>
  [
    '{',
    '  "user": "deploy",',
    `  "password":${newline}    "${password}",`,
    `  "api_token":${newline}${newline}      "${token}"`,
    `  'client_secret':${newline}\t'${token}'`,
    '}',
  ].join(newline);

describe('a line break between a credential key and its value', () => {
  it('redacts the value on the next line (LF and CRLF), written to and read from a real file', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-wrapped-'));
    try {
      for (const newline of ['\n', '\r\n']) {
        const path = join(directory, 'config.json');
        await writeFile(path, wrapped(newline));
        const { text, findings } = scrubber.scrub(await readFile(path, 'utf8'));
        expect(text).not.toContain(password);
        expect(text).not.toContain(token);
        expect(text).toContain(`"password":${newline}    "[REDACTED:password]",`);
        expect(findings.map((finding) => finding.kind)).toEqual(['password', 'token', 'secret']);
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('redacts it when a stream splits the text at any offset', () => {
    const text = wrapped('\r\n');
    const expected = scrubber.scrubText(text);
    expect(expected).not.toContain(password);
    for (let cut = 1; cut < text.length; cut++) {
      const stream = scrubber.createStreamScrubber();
      const out = stream.write(text.slice(0, cut)) + stream.write(text.slice(cut)) + stream.flush();
      expect(out, `cut at ${cut}`).toBe(expected);
    }
  });

  it('leaves a nested object, a list, a prose line and an unquoted word on the next line alone', () => {
    for (const text of [
      '"password":\n  {\n    "secretKeyRef": { "name": "db", "key": "password" }\n  }',
      '"tokens":\n  [\n    "read", "write"\n  ]',
      'password:\n  "Enter the password of the service account"',
      'Password:\nhunter2-on-its-own-line',
    ])
      expect(scrubber.scrub(text).findings, text).toEqual([]);
  });
});
