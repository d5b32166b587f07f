import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { failure, getTool } from './helpers/bad-input.js';
import { useCleanups } from './helpers/fixtures.js';
import { BROKEN_ANSWERS, rawServer } from './helpers/raw-server.js';

const { provider, defer } = useCleanups();

describe('answers that are not valid HTTP/1.1', () => {
  it('fail EXECUTION_FAILED saying the server (or a proxy) is at fault, not that it is unreachable', async () => {
    for (const [what, answer] of Object.entries(BROKEN_ANSWERS)) {
      const origin = await rawServer(defer, answer);
      const result = failure(
        await provider({ a: getTool(`${origin}/a`) }).execute('a', {}, createToolContext()),
      );
      // they used to read "is unreachable", "Headers Overflow Error" or the parser's words alone
      expect(result.error.code, what).toBe('EXECUTION_FAILED');
      expect(result.error.message, what).toContain(`GET ${origin}/a answered`);
      expect(result.error.message, what).toContain('the server or a proxy in between is misbehaving');
      expect(result.error.retryable, what).toBe(false);
    }
  });

  it('skip interim answers other than 100 and read the answer after them', async () => {
    for (const interim of [
      'HTTP/1.1 102 Processing\r\n\r\n',
      'HTTP/1.1 103 Early Hints\r\nlink: </a.css>\r\n\r\n',
    ]) {
      const origin = await rawServer(
        defer,
        `${interim}HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\r\n{"ok":true}`,
      );
      const result = await provider({ a: getTool(`${origin}/a`) }).execute('a', {}, createToolContext());
      expect(result.ok, interim).toBe(true);
      expect(result.ok && result.structured, interim).toEqual({ ok: true });
    }
  });
});
