import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

const fake = createFakeSource();
const scrubber = createScrubber();

// Source code whose option values sit under credential-like keys: the Fetch API's `credentials`
// mode (`include`, `same-origin`, `omit`) is a keyword, not a credential.

describe('fetch credentials modes', () => {
  it('leaves the modes of a real source file alone and still redacts a credential beside them', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-code-'));
    const password = `${fake.chars(ALPHABETS.alnum, 14)}7`;
    try {
      const path = join(directory, 'client.js');
      await writeFile(
        path,
        [
          "const response = await fetch(url, { method: 'POST', credentials: 'include' });",
          'const request = new Request(url, { credentials: "same-origin", mode: "cors" });',
          'axios.create({ withCredentials: true }); fetch(u, {credentials:`omit`});',
          '{ "credentials": "include", "cache": "no-store" }',
          `const login = { user: 'app', password: '${password}' };`,
        ].join('\n'),
      );
      const text = await readFile(path, 'utf8');
      const { text: scrubbed, findings } = scrubber.scrub(text);
      expect(findings.map((finding) => finding.kind)).toEqual(['password']);
      expect(scrubbed).toBe(text.replace(password, '[REDACTED:password]'));
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
