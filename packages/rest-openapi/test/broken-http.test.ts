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
});
