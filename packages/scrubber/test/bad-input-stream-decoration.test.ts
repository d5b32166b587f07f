import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../src/testing/fake.js';

// An emoji or a no-break space right after an unquoted value is given back (see
// rules/bad-input-value-edges.test.ts); in a stream, the chunk boundary may fall before the
// emoji, inside it (between the two halves of a surrogate pair, or before its variation
// selector), or after it.

const run = promisify(execFile);
const fake = createFakeSource();
const scrubber = createScrubber();
const secret = () => `${fake.chars(ALPHABETS.alnum, 24)}9`;

function streamed(chunks: readonly string[]): string {
  const stream = scrubber.createStreamScrubber();
  let out = '';
  for (const chunk of chunks) out += stream.write(chunk);
  return out + stream.flush();
}

describe('trailing decoration across stream chunks', () => {
  it('gives the emoji back wherever a chunk boundary falls around it', async () => {
    const [token, password, netrc] = [secret(), secret(), secret()];
    const script = [
      // Enough lines before the values that the stream emits (and cuts) before they arrive.
      'i=0; while [ $i -lt 120 ]; do echo "step $i: ok"; i=$((i+1)); done',
      'printf "API_TOKEN=%s\\342\\234\\205 saved\\n" "$T"', // ✅
      'echo "(two NAME= lines next to each other would be an env dump: a value to the line end)"',
      'printf "DB_PASSWORD=%s\\360\\237\\224\\221\\357\\270\\217 ready\\n" "$P"', // 🔑 + U+FE0F
      'echo saved',
      'printf "machine ci.example.com login bot password %s\\302\\240\\n" "$N"', // U+00A0
      'echo done',
    ].join('; ');
    const { stdout } = await run('sh', ['-c', script], {
      env: { ...process.env, T: token, P: password, N: netrc },
    });
    const whole = scrubber.scrubText(stdout);
    expect(whole).toContain('API_TOKEN=[REDACTED:token]✅ saved\n');
    expect(whole).toContain('DB_PASSWORD=[REDACTED:password]🔑\ufe0f ready\n');
    expect(whole).toContain('password [REDACTED:password]\u00a0\n');
    const around = [token, password, netrc].map((value) => stdout.indexOf(value) + value.length);
    for (const end of around) {
      // The stream cuts its output about 550 characters (its hold-back) before the end of what it
      // has: splits up to 700 characters after the value put that cut at the emoji and around it.
      for (let split = end - 3; split <= end + 700; split++)
        expect(streamed([stdout.slice(0, split), stdout.slice(split)]), `split at ${split}`).toBe(whole);
      for (let split = end - 3; split <= end + 4; split++) {
        // A first chunk long enough to be emitted, then the rest in small pieces.
        const rest = stdout.slice(split);
        const pieces = [stdout.slice(0, split)];
        for (let i = 0; i < rest.length; i += 3) pieces.push(rest.slice(i, i + 3));
        expect(streamed(pieces), `split at ${split}, then 3-character chunks`).toBe(whole);
      }
    }
    expect(streamed([...stdout])).toBe(whole); // one UTF-16 unit per chunk
  });
});
