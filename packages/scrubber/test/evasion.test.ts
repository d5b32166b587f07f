import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  type ContentBlock,
  type RegisteredTool,
  type ToolResult,
  createToolContext,
  ok,
} from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrubberMiddleware } from '../src/middleware.js';
import { createScrubber } from '../src/scrubber.js';
import { base64Cores } from '../src/secret-variants.js';
import { ALPHABETS, createFakeSource } from '../src/testing/fake.js';

// Secrets as real output disguises them: colour codes, invisible characters, look-alike
// letters, JSON and URL escapes, split across content blocks.

const run = promisify(execFile);
const fake = createFakeSource();
const githubToken = `ghp_${fake.chars(ALPHABETS.alnum, 36)}`;
const password = `${fake.chars(ALPHABETS.alnum, 14)}7`;
const held = `${fake.chars(ALPHABETS.alnum, 12)}<&>/${fake.chars(ALPHABETS.alnum, 12)}`;
const scrubber = createScrubber({ secrets: [held] });
const leaks = (text: string): boolean =>
  [githubToken, password, held].some((secret) => text.includes(secret));

describe('terminal colour codes', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scrubber-evasion-'));
    await writeFile(join(dir, '.env'), `GITHUB_TOKEN=${githubToken}\nDB_PASSWORD=${password}\n`);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('redacts what `grep --color=always` really prints around a match', async () => {
    let stdout: string;
    try {
      ({ stdout } = await run('grep', ['--color=always', '-E', 'ghp_|PASSWORD', join(dir, '.env')]));
    } catch (error) {
      if (process.env.CI === 'true') throw error;
      console.warn(`skipped: grep is not available (${String(error)})`);
      return;
    }
    expect(stdout).toContain('\x1b['); // the colours are really there
    const { text, findings } = scrubber.scrub(stdout);
    expect(leaks(text)).toBe(false);
    expect(findings.map((finding) => finding.kind).sort()).toEqual(['github_token', 'password']);
    expect(text).toContain('\x1b['); // colour codes outside the secret stay
  });

  it('redacts colour codes inside an assignment, also JSON-escaped in a log line', () => {
    const inside = `password=\x1b[1m${password}\x1b[0m`;
    expect(scrubber.scrubText(inside)).toBe('password=\x1b[1m[REDACTED:password]\x1b[0m');
    const key = `\x1b[32mDB_PASSWORD\x1b[0m: ${password}`;
    expect(scrubber.scrubText(key)).toBe('\x1b[32mDB_PASSWORD\x1b[0m: [REDACTED:password]');
    const json = JSON.stringify({ log: `\x1b[31m${githubToken}\x1b[0m` });
    const scrubbed = scrubber.scrubText(json);
    expect(JSON.parse(scrubbed)).toEqual({ log: '\x1b[31m[REDACTED:github_token]\x1b[0m' });
  });
});

describe('invisible characters and look-alike letters', () => {
  it('reads key names through zero-width, soft hyphen and bidi marks', () => {
    for (const mark of ['\u200b', '\u200d', '\u00ad', '\u200f', '\u2066', '\ufeff']) {
      const text = `pass${mark}word=${password}\n{"api${mark}_key": "${password}"}`;
      const { text: out, findings } = scrubber.scrub(text);
      expect(leaks(out)).toBe(false);
      expect(findings).toHaveLength(2);
      expect(out).toContain(`pass${mark}word=`); // the key itself is left as it was
    }
  });

  it('redacts a token with an invisible character inside it, whole', () => {
    const split = `${githubToken.slice(0, 12)}\u200b${githubToken.slice(12)}`;
    expect(scrubber.scrubText(`use ${split} now`)).toBe('use [REDACTED:github_token] now');
  });

  it('reads key names spelled with Cyrillic, Greek or fullwidth letters', () => {
    for (const key of ['p\u0430ssword', 't\u03bfken', 'ＡＰＩ＿ＫＥＹ', '\u0421LIENT_SECRET']) {
      const { text } = scrubber.scrub(`${key}=${password}\n`);
      expect(text).toBe(`${key}=[REDACTED:${text.slice(key.length + 11, -2)}]\n`);
      expect(leaks(text)).toBe(false);
    }
  });

  it('leaves ordinary Russian, Greek and Japanese text alone', () => {
    const text = 'Пароль изменён. Токен: обновлён\nΚωδικός: ενημερώθηκε\nパスワード：変更済み\n';
    expect(scrubber.scrub(text).findings).toEqual([]);
  });
});

describe('JSON and URL escapes', () => {
  it('redacts tokens and key names written with \\u escapes, and stays valid JSON', () => {
    const escapedToken = `${githubToken.slice(0, 4)}\\u00${githubToken.charCodeAt(4).toString(16)}${githubToken.slice(5)}`;
    const text = `{"note":"${escapedToken}","pass\\u0077ord":"${password}"}`;
    const out = scrubber.scrubText(text);
    expect(JSON.parse(out)).toEqual({ note: '[REDACTED:github_token]', password: '[REDACTED:password]' });
  });

  it("redacts a held value in Go's JSON (\\u003c \\u0026 \\u003e) and PHP's (\\/)", () => {
    const go = JSON.stringify({ v: held })
      .replace(/</g, '\\u003c')
      .replace(/>/g, '\\u003e')
      .replace(/&/g, '\\u0026');
    expect(JSON.parse(scrubber.scrubText(go))).toEqual({ v: '[REDACTED:secret]' });
    const php = JSON.stringify({ v: held }).replace(/\//g, '\\/');
    expect(JSON.parse(scrubber.scrubText(php))).toEqual({ v: '[REDACTED:secret]' });
    const query = `{"url":"https://api/x?a=1\\u0026access_token=${password}\\u0026b=2"}`;
    expect(JSON.parse(scrubber.scrubText(query))).toEqual({
      url: 'https://api/x?a=1\\u0026access_token=[REDACTED:token]\\u0026b=2'.replace(/\\u0026/g, '&'),
    });
  });

  it('redacts credentials inside a percent-encoded URL (a redirect target, an encoded DSN)', () => {
    const redirect = `GET /login?next=${encodeURIComponent(`https://app/cb?access_token=${password}&x=1`)}`;
    const out = scrubber.scrubText(redirect);
    expect(out).toBe(`GET /login?next=https%3A%2F%2Fapp%2Fcb%3Faccess_token%3D[REDACTED:token]%26x%3D1`);
    const dsn = `url=${encodeURIComponent(`postgres://app:${password}@db/app`)}`;
    expect(scrubber.scrubText(dsn)).toBe('url=postgres%3A%2F%2Fapp%3A[REDACTED:url_password]%40db%2Fapp');
  });

  it('redacts JSON inside an HTML attribute (entity-escaped quotes), keeping the entities', () => {
    const attribute = `<div data-config="{&quot;apiKey&quot;:&quot;${password}&quot;,&quot;n&quot;:1}"></div>`;
    expect(scrubber.scrubText(attribute)).toBe(
      '<div data-config="{&quot;apiKey&quot;:&quot;[REDACTED:api_key]&quot;,&quot;n&quot;:1}"></div>',
    );
    expect(scrubber.scrubText(`{&#34;password&#34;:&#x22;${password}&#x22;}`)).toBe(
      '{&#34;password&#34;:&#x22;[REDACTED:password]&#x22;}',
    );
  });

  it('does not read an escaped backslash as the start of an escape', () => {
    // `\\u0070` is a backslash and the text "u0070", not the letter p.
    expect(scrubber.scrub('{"a":"\\\\u0070assword=abcdefgh123"}').findings).toEqual([]);
  });
});

describe('streams', () => {
  it('give the one-shot output for disguised secrets under random chunking', () => {
    const filler = (lines: number): string =>
      Array.from({ length: lines }, (_, index) => `line ${index} of ordinary output\n`).join('');
    const text = [
      filler(30),
      `\x1b[01;31m\x1b[K${githubToken}\x1b[m\x1b[K\n`,
      filler(20),
      `pass\u200bword=${password}\n`,
      filler(40),
      `{"v":"${JSON.stringify(held).slice(1, -1).replace(/&/g, '\\u0026').replace(/</g, '\\u003c')}"}\n`,
      `p\u0430ssword: ${password}\n`,
      `next=${encodeURIComponent(`https://a/cb?access_token=${password}&x=1`)}\n`,
      filler(50),
      `${githubToken.slice(0, 9)}\u200b${githubToken.slice(9)}\n`,
    ].join('');
    const oneShot = scrubber.scrubText(text);
    expect(leaks(oneShot)).toBe(false);
    for (let round = 0; round < 40; round++) {
      const stream = scrubber.createStreamScrubber();
      let out = '';
      for (let index = 0; index < text.length; ) {
        const size = 1 + Math.floor(Math.random() * (round % 2 === 0 ? 9 : 400));
        out += stream.write(text.slice(index, index + size));
        index += size;
      }
      expect(out + stream.flush()).toBe(oneShot);
    }
  });
});

describe('base64 wrapped into lines', () => {
  it('redacts a held value in real `base64` output (76 columns), wherever the line breaks fall', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scrubber-base64-'));
    try {
      for (let lead = 0; lead < 60; lead += 7) {
        const file = join(dir, `env-${lead}`);
        await writeFile(file, `${'#'.repeat(lead)}\nAPI_KEY=${held}\nREGION=eu-west-1\n`);
        let stdout: string;
        try {
          ({ stdout } = await run('base64', [file]));
        } catch (error) {
          if (process.env.CI === 'true') throw error;
          console.warn(`skipped: base64 is not available (${String(error)})`);
          return;
        }
        const out = scrubber.scrubText(stdout);
        expect(out).toContain('[REDACTED:secret]');
        // Unredacted, the joined lines would hold one of the value's three base64 alignments.
        const joined = out.replace(/\n/g, '');
        for (const core of base64Cores(held)) expect(joined).not.toContain(core);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('leaves wrapped random base64 alone when values are held', () => {
    const wrapped = fake.base64(300_000).replace(/(.{76})/g, '$1\n');
    expect(scrubber.scrubText(wrapped)).toBe(wrapped);
  });
});

describe('secrets split across the pieces of one output', () => {
  const registered: RegisteredTool = {
    name: 'test__split',
    localName: 'split',
    spec: { name: 'split', description: 'split', inputSchema: { type: 'object' } },
    provider: { namespace: 'test', kind: 'local' },
  };
  const through = async (content: ContentBlock[]): Promise<ToolResult> => {
    const middleware = scrubberMiddleware(scrubber);
    const handle = middleware.handle as NonNullable<typeof middleware.handle>;
    return handle({ tool: registered, args: {}, ctx: createToolContext() }, async () => ok(content));
  };

  it('redacts a token split across consecutive text blocks, marker in the first, blocks kept', async () => {
    for (const cut of [1, 4, 10, 39]) {
      const result = await through([
        { type: 'text', text: `stdout: ${githubToken.slice(0, cut)}` },
        { type: 'text', text: `${githubToken.slice(cut)} done` },
        { type: 'text', text: 'next block' },
      ]);
      expect(result.ok && result.content).toEqual([
        { type: 'text', text: 'stdout: [REDACTED:github_token]' },
        { type: 'text', text: ' done' },
        { type: 'text', text: 'next block' },
      ]);
    }
  });

  it('redacts a value whose key is in the block before and whose end is in the block after', async () => {
    const result = await through([
      { type: 'text', text: 'DB_PASSWORD=' },
      { type: 'text', text: password.slice(0, 5) },
      { type: 'text', text: `${password.slice(5)}\nok` },
    ]);
    expect(result.ok && result.content).toEqual([
      { type: 'text', text: 'DB_PASSWORD=' },
      { type: 'text', text: '[REDACTED:password]' },
      { type: 'text', text: '\nok' },
    ]);
  });

  it('keeps binary payloads valid base64 of the same length when a held value is inside', async () => {
    const header = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    const payload = Buffer.concat([header, Buffer.from(`key=${held};`), Buffer.alloc(48, 7)]).toString(
      'base64',
    );
    const result = await through([
      { type: 'image', data: payload, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: { uri: 'mem://env', blob: payload, mimeType: 'application/octet-stream' },
      },
    ]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const image = result.content[0] as Extract<ContentBlock, { type: 'image' }>;
    const resource = result.content[1] as Extract<ContentBlock, { type: 'resource' }>;
    for (const data of [image.data, resource.resource.blob ?? '']) {
      expect(data).not.toBe(payload); // something was redacted
      expect(data).toHaveLength(payload.length);
      expect(data).toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
      const decoded = Buffer.from(atob(data), 'latin1').toString('latin1');
      expect(decoded).not.toContain(held.slice(1, -1));
      expect(decoded.startsWith('\x89PNG')).toBe(true);
    }
  });
});
