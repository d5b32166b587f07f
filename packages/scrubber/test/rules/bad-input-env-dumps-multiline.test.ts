import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

const run = promisify(execFile);
const fake = createFakeSource();
const scrubber = createScrubber();

// A variable holding several lines (a JSON credential, a key, a passphrase list): dash's
// `export -p` and `set`, and bash's `set` in POSIX mode, print it in quotes that run over lines;
// older bash prints `declare -x NAME="..."` so. The whole quoted value must go, not its first line.

const words = () => fake.chars(ALPHABETS.alnum, 14);
const secrets: Record<string, string> = {
  API_SECRET: `first ${words()}\n{"k":"${words()}","q":"it's"}\nlast ${words()}`,
  DB_PASSWORD: `${words()}\n${words()}`,
};

function streamAll(text: string, cut: number): string {
  const stream = scrubber.createStreamScrubber();
  let out = '';
  for (let at = 0; at < text.length; at += cut) out += stream.write(text.slice(at, at + cut));
  return out + stream.flush();
}

describe('environment dumps with values over several lines', () => {
  it('redacts the whole quoted value in real dash and bash --posix output', async () => {
    const script = 'echo "--- export -p"; export -p; echo "--- set"; set';
    const outputs: string[] = [];
    for (const [shell, args] of [
      ['dash', ['-c', script]],
      ['bash', ['--norc', '--posix', '-c', script]],
    ] as const) {
      try {
        const { stdout } = await run(shell, [...args], {
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...secrets },
        });
        outputs.push(stdout);
      } catch (error) {
        if (process.env.CI === 'true' || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        console.warn(`skipped ${shell}: not available (${String(error)})`);
      }
    }
    const text = outputs.join('\n');
    if (text === '') return;
    expect(text).toContain(`API_SECRET='first `); // the value runs over lines in quotes
    const scrubbed = scrubber.scrubText(text);
    for (const [name, value] of Object.entries(secrets))
      for (const piece of value.split(/[\n "]/).filter((part) => part.length >= 10))
        expect(scrubbed, `${name}: ${piece}`).not.toContain(piece);
    expect(scrubbed).toContain("API_SECRET='[REDACTED:secret]'\n");
    expect(scrubbed).toContain('LANG=');
    // A chunked stream gives what one-shot scrubbing gives.
    for (const cut of [7, 64, 500]) expect(streamAll(text, cut), `chunks of ${cut}`).toBe(scrubbed);
  });

  it('redacts a double-quoted value over lines (older bash declare -x) and keeps what follows', () => {
    const [one, two] = [words(), words()];
    const text = `declare -x GH_PAT="${one}\n\\"${two}\\""\ndeclare -x LANG="C.UTF-8"\n`;
    expect(scrubber.scrubText(text)).toBe(
      'declare -x GH_PAT="[REDACTED:token]"\ndeclare -x LANG="C.UTF-8"\n',
    );
  });

  it('bounds the value: a quote that does not close within 4096 characters is not a value', () => {
    const text = `export API_SECRET='${words()}\n${'x '.repeat(2100)}\nLANG=C\n`;
    expect(scrubber.scrubText(text)).toBe(text);
    expect(streamAll(text, 100)).toBe(text);
  });

  it('leaves a quote followed by more text on its closing line (not a dump value)', () => {
    const text = `API_SECRET='${words()}\nmore' and text\n`;
    expect(scrubber.scrubText(text)).toBe(text);
  });
});
