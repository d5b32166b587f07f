import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type RegisteredTool, createToolContext, ok } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { scrubberMiddleware } from '../src/middleware.js';
import { createScrubber } from '../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../src/testing/fake.js';

const run = promisify(execFile);
const fake = createFakeSource();
const password = `${fake.chars(ALPHABETS.alnum, 14)}7`;
const githubToken = `ghp_${fake.chars(ALPHABETS.alnum, 36)}`;
const scrubber = createScrubber();

// Structured results hold strings that are themselves escaped text (a JSON file read whole, a
// JSON body inside a JSON log record). `scrubValue` scrubs the value as JSON text, which escapes
// those strings once more: what `scrubText` finds in the string must not be lost by that.

/** Strings a read or HTTP tool may carry whole, each holding `password`. */
function escapedTexts(): Record<string, string> {
  return {
    // PHP's json_encode writes `/` as `\/`.
    php: `{"dsn":"https:\\/\\/deploy:${password}@db.example.com\\/app"}`,
    // A JSON body kept as a string inside a JSON record (API gateway and Lambda logs).
    nested: JSON.stringify({ statusCode: 200, body: JSON.stringify({ password }) }),
    // The same body once more escaped, as a log line of that record.
    escapedQuotes: `{\\"password\\":\\"${password}\\"}`,
  };
}

describe('strings holding escaped text in structured values', () => {
  it('are redacted in an object, an array, nested, and next to a finding elsewhere', () => {
    for (const [name, text] of Object.entries(escapedTexts())) {
      expect(scrubber.scrubText(text), name).not.toContain(password);
      for (const value of [
        { content: text },
        [text],
        { a: { b: [{ c: text }] } },
        { token: githubToken, content: text },
      ]) {
        const scrubbed = JSON.stringify(scrubber.scrubValue(value));
        expect(scrubbed, name).not.toContain(password);
        expect(scrubbed, name).not.toContain(githubToken);
        expect(scrubbed, name).toContain('[REDACTED:');
      }
    }
  });

  it('keep the rest of the string and the value shape', () => {
    const { php, nested } = escapedTexts();
    const scrubbed = scrubber.scrubValue({ file: 'config.json', content: php, log: [nested, 7] });
    expect(scrubbed.file).toBe('config.json');
    expect(scrubbed.content).toBe(
      '{"dsn":"https:\\/\\/deploy:[REDACTED:url_password]@db.example.com\\/app"}',
    );
    expect(scrubbed.log[1]).toBe(7);
    expect(JSON.parse(JSON.parse(scrubbed.log[0] as string).body)).toEqual({
      password: '[REDACTED:password]',
    });
  });

  it('leaves a value with ordinary backslashes (Windows paths, regexes) the same object', () => {
    const value = { path: 'C:\\Users\\me\\project', pattern: '^\\d+\\.\\d+$', note: 'a "quoted" word' };
    expect(scrubber.scrubValue(value)).toBe(value);
  });

  it('redacts a JSON file that a real process wrote with escaped slashes, as a tool result', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-structured-'));
    try {
      const file = join(directory, 'config.json');
      // The file is written by a child process, the way a PHP or Go service leaves it on disk.
      const script = `require('fs').writeFileSync(process.argv[1], JSON.stringify({ dsn: process.argv[2] }).replaceAll('/', '\\\\/'))`;
      await run(process.execPath, ['-e', script, file, `mysql://deploy:${password}@db/app`]);
      const content = await readFile(file, 'utf8');
      expect(content).toContain('\\/');
      const tool: RegisteredTool = {
        name: 'files__read_file',
        localName: 'read_file',
        spec: { name: 'read_file', description: 'reads a file', inputSchema: { type: 'object' } },
        provider: { namespace: 'files', kind: 'local' },
      };
      const handle = scrubberMiddleware(scrubber).handle as NonNullable<
        ReturnType<typeof scrubberMiddleware>['handle']
      >;
      const result = await handle({ tool, args: { path: file }, ctx: createToolContext() }, async () =>
        ok([{ type: 'text', text: content }], { path: file, content }),
      );
      expect(result.ok).toBe(true);
      expect(JSON.stringify(result)).not.toContain(password);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
