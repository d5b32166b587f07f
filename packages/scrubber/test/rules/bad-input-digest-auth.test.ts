import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startLoopbackServer } from '../helpers/loopback-server.js';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

// HTTP Digest authentication sends `Authorization: Digest username=".." ... response="<hash>"`:
// the response hash is the credential (it stood for the password); the other fields stay.

const run = promisify(execFile);
const fake = createFakeSource();
const scrubber = createScrubber();

describe('Authorization: Digest', () => {
  it('redacts the response of what a real `curl -v --digest` sent to a loopback server', async () => {
    const server = await startLoopbackServer((request, response) => {
      if (!request.headers.authorization?.startsWith('Digest ')) {
        response.writeHead(401, {
          'WWW-Authenticate': 'Digest realm="tests", qop="auth", nonce="5f1c0a9b7e", opaque="c0ffee"',
        });
        response.end();
        return;
      }
      response.end('ok');
    });
    try {
      const password = `${fake.chars(ALPHABETS.alnum, 14)}7`;
      let stderr: string;
      try {
        ({ stderr } = await run('curl', [
          '-sv',
          '--digest',
          '-u',
          `deploy:${password}`,
          `http://127.0.0.1:${server.port}/x`,
        ]));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' && process.env.CI !== 'true') {
          console.warn('curl is not installed: skipped');
          return;
        }
        throw error;
      }
      const hash = /response="([0-9a-f]{32,64})"/.exec(stderr)?.[1];
      expect(hash).toBeDefined();
      const scrubbed = scrubber.scrubText(stderr);
      expect(scrubbed).not.toContain(hash as string);
      expect(scrubbed).toMatch(
        /Authorization: Digest username="deploy", realm="tests", .*response="\[REDACTED:authorization\]"/,
      );
    } finally {
      await server.close();
    }
  });
});
