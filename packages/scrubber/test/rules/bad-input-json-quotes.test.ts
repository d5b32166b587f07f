import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

const fake = createFakeSource();
const scrubber = createScrubber();

// A password holding `"` or `\`: JSON writes them escaped (`\"`, `\\`), and JSON inside a JSON
// string escapes them once more (`\\\"`). The value must be redacted whole at both levels.

describe('passwords with quotes and backslashes in JSON', () => {
  it('redacts them whole in JSON text and in JSON inside a JSON string', () => {
    for (const inside of ['"', '\\', '\\"', '""']) {
      const password = `${fake.chars(ALPHABETS.alnum, 6)}${inside}${fake.chars(ALPHABETS.alnum, 8)}9`;
      const [head, tail] = [password.slice(0, 6), password.slice(6 + inside.length)];
      let text = JSON.stringify({ user: 'app', password });
      for (let level = 0; level < 2; level++) {
        const scrubbed = scrubber.scrubText(text);
        expect(scrubbed, text).not.toContain(head);
        expect(scrubbed, text).not.toContain(tail);
        expect(scrubbed, text).toContain('[REDACTED:password]');
        expect(scrubbed, text).toContain('app');
        text = JSON.stringify({ body: text });
      }
    }
  });
});
