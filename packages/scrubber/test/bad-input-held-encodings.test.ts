import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackServer, startLoopbackServer } from './helpers/loopback-server.js';
import { createScrubber } from '../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../src/testing/fake.js';

// Held values (exact secrets) percent-encoded with every byte escaped, in lower case or by an
// RFC 3986 encoder, and hex (plain, upper case, `xxd -p` wrapped into lines, hex dumps). Base64
// and base64url are in exact-secrets.test.ts.

const run = promisify(execFile);
const fake = createFakeSource();
// `!*'()` are left alone by encodeURIComponent but escaped by curl and Python's quote().
const held = `${fake.chars(ALPHABETS.alnum, 10)}!*${fake.chars(ALPHABETS.alnum, 8)}(${fake.chars(ALPHABETS.alnum, 6)})+${fake.chars(ALPHABETS.alnum, 4)}`;
const plain = fake.chars(ALPHABETS.alnum, 32);
const scrubber = createScrubber({ secrets: [held, plain] });

const hex = (value: string): string => Buffer.from(value).toString('hex');
/** Every byte as `%xx`, the way an encoder that escapes everything writes it. */
const everyByte = (value: string, upper: boolean): string =>
  [...Buffer.from(value)]
    .map((byte) => {
      const digits = byte.toString(16).padStart(2, '0');
      return `%${upper ? digits.toUpperCase() : digits}`;
    })
    .join('');

/** Runs a tool; skips (outside CI) when it is not installed. */
async function tool(file: string, args: string[]): Promise<{ stdout: string; stderr: string } | undefined> {
  try {
    return await run(file, args);
  } catch (error) {
    if (process.env.CI === 'true' || (error as { code?: unknown }).code !== 'ENOENT') throw error;
    console.warn(`skipped: ${file} is not available (${String(error)})`);
    return undefined;
  }
}

describe('percent-encoded held values', () => {
  let server: LoopbackServer;
  let port = 0;
  const received: string[] = [];
  beforeAll(async () => {
    server = await startLoopbackServer((request, response) => {
      received.push(request.url ?? '');
      response.end('ok');
    });
    port = server.port;
  });
  afterAll(async () => {
    await server.close();
  });

  it('redacts a value curl escaped with --data-urlencode, in its real `-v` request line', async () => {
    const output = await tool('curl', [
      '-sv',
      '-G',
      '--data-urlencode',
      `api_key_hint=${held}`,
      `http://127.0.0.1:${port}/items`,
    ]);
    if (output === undefined) return;
    // The server really got the value, escaped beyond what encodeURIComponent escapes.
    const url = received.at(-1) ?? '';
    expect(new URL(url, 'http://x').searchParams.get('api_key_hint')).toBe(held);
    expect(output.stderr).not.toContain(encodeURIComponent(held));
    const { text, findings } = scrubber.scrub(output.stderr);
    expect(text).toContain('> GET /items?api_key_hint=[REDACTED:secret] HTTP/1.1');
    expect(findings).toHaveLength(1);
  });

  it('redacts a value with every byte escaped, in upper or lower case, and lower-cased escapes', () => {
    for (const encoded of [
      everyByte(plain, true),
      everyByte(plain, false),
      everyByte(held, false),
      encodeURIComponent(held).replace(/%2B/g, '%2b'),
      encodeURIComponent(held).replace(/[!*()]/g, (c) => `%${c.charCodeAt(0).toString(16)}`),
    ]) {
      const text = `GET /cb?state=${encoded}&page=2 HTTP/1.1`;
      expect(scrubber.scrubText(text), encoded).toBe('GET /cb?state=[REDACTED:secret]&page=2 HTTP/1.1');
      expect(scrubber.scrubText(`"${encoded}"`), encoded).toBe('"[REDACTED:secret]"');
    }
  });

  it('gives the one-shot output in a stream, and leaves other percent-encoded text alone', () => {
    const text = `log: a=${'x'.repeat(300)}\nurl=/cb?s=${everyByte(plain, false)}&n=1\nend\n`;
    const oneShot = scrubber.scrubText(text);
    expect(oneShot).toContain('url=/cb?s=[REDACTED:secret]&n=1');
    for (const size of [1, 7, 50, 333]) {
      const stream = scrubber.createStreamScrubber();
      let out = '';
      for (let index = 0; index < text.length; index += size)
        out += stream.write(text.slice(index, index + size));
      expect(out + stream.flush()).toBe(oneShot);
    }
    const ordinary = `q=${everyByte(fake.chars(ALPHABETS.alnum, 40), false)}&r=100%25&s=%E2%9C%93`;
    expect(scrubber.scrub(ordinary).findings).toEqual([]);
  });

  it('redacts a non-ASCII held value escaped as UTF-8 bytes', () => {
    const unicode = `${fake.chars(ALPHABETS.alnum, 10)}é✓${fake.chars(ALPHABETS.alnum, 6)}`;
    const own = createScrubber({ secrets: [unicode] });
    expect(own.scrubText(`x=${everyByte(unicode, false)}&y=1`)).toBe('x=[REDACTED:secret]&y=1');
    expect(own.scrubText(`bytes ${hex(unicode)}.`)).toBe('bytes [REDACTED:secret].');
  });
});

describe('hex-encoded held values', () => {
  it('redacts the plain hex of a value, lower and upper case', () => {
    for (const encoded of [hex(plain), hex(plain).toUpperCase(), hex(held), hex(held).toUpperCase()]) {
      expect(scrubber.scrubText(`payload=${encoded};`), encoded).toBe('payload=[REDACTED:secret];');
      expect(scrubber.scrubText(`0a0d${encoded}0a`)).not.toContain(encoded.slice(4, -4));
    }
  });

  it('redacts a value in real `xxd -p` and `xxd -p -u` output (60 columns), wherever the lines break', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scrubber-hex-'));
    try {
      for (let lead = 0; lead < 40; lead += 3) {
        const file = join(dir, `env-${lead}`);
        await writeFile(file, `${'#'.repeat(lead)}\nAPI_KEY=${held}\nREGION=eu-west-1\n`);
        for (const upper of [false, true]) {
          const output = await tool('xxd', upper ? ['-p', '-u', file] : ['-p', file]);
          if (output === undefined) return;
          expect(output.stdout.split('\n')[0]).toHaveLength(60);
          const out = scrubber.scrubText(output.stdout);
          expect(out, `lead ${lead}`).toContain('[REDACTED:secret]');
          const joined = out.replace(/\n/g, '').toLowerCase();
          // No 12-character piece of the value's hex is left.
          const full = hex(held);
          for (let i = 0; i + 24 <= full.length; i += 2) expect(joined).not.toContain(full.slice(i, i + 24));
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('leaves random hex, digests and `xxd -p` of random bytes alone when values are held', async () => {
    const digests = Array.from({ length: 200 }, () => fake.chars(ALPHABETS.hex, 64)).join('\n');
    expect(scrubber.scrub(digests).findings).toEqual([]);
    const dir = await mkdtemp(join(tmpdir(), 'scrubber-hex-'));
    try {
      const file = join(dir, 'random.bin');
      await writeFile(file, Buffer.from(fake.base64(30_000), 'base64'));
      const output = await tool('xxd', ['-p', file]);
      if (output === undefined) return;
      expect(scrubber.scrubText(output.stdout)).toBe(output.stdout);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('hex dumps with a text column', () => {
  it('redacts a value in real `xxd` and `hexdump -C` output, hex and text column, wherever the lines break', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scrubber-dump-'));
    try {
      for (let lead = 0; lead < 40; lead += 5) {
        const file = join(dir, `env-${lead}`);
        await writeFile(file, `${'#'.repeat(lead)}\nAPI_KEY=${held}\nREGION=eu-west-1\n`);
        for (const [command, args] of [
          ['xxd', [file]],
          ['xxd', ['-u', file]],
          ['hexdump', ['-C', file]],
        ] as const) {
          const output = await tool(command, [...args]);
          if (output === undefined) return;
          const out = scrubber.scrubText(output.stdout);
          expect(out, `${command} lead ${lead}`).toContain('[REDACTED:secret]');
          // Neither the bytes (hex digits, groups and spaces removed) nor the text column hold the value.
          const digits = out
            .split('\n')
            .map((line) => line.slice(10, 58).replace(/[^0-9a-fA-F]/g, ''))
            .join('')
            .toLowerCase();
          expect(digits).not.toContain(hex(held).slice(8, 32));
          for (let i = 0; i + 6 <= held.length; i++) expect(out).not.toContain(held.slice(i, i + 6));
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads 4 MB of dump-like lines once, and leaves them alone', () => {
    const lines = ['00000000: 0: 0  0: \n', '00000010  0  0: 41 42\n', `0000002${'0: 4142 '.repeat(40)}\n`];
    const text = lines.join('').repeat(Math.ceil(4_000_000 / lines.join('').length));
    expect(scrubber.scrubText(text)).toBe(text);
  });

  it('leaves dumps of other bytes alone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scrubber-dump-'));
    try {
      const file = join(dir, 'random.bin');
      await writeFile(file, Buffer.from(fake.base64(20_000), 'base64'));
      const output = await tool('xxd', [file]);
      if (output === undefined) return;
      expect(scrubber.scrubText(output.stdout)).toBe(output.stdout);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
