import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { failure, getTool } from './helpers/bad-input.js';
import { objectSchema, useCleanups } from './helpers/fixtures.js';

const { server, provider } = useCleanups();

describe('arguments with more wrong items than a validation describes', () => {
  it('counts every wrong item in the message, not only the 1,000 described', async () => {
    const api = await server();
    const rest = provider({
      tag: getTool(`${api.origin}/tag`, {
        parametersSchema: objectSchema({ tags: { type: 'array', items: { type: 'string' } } }),
      }),
    });
    const tags = Array.from({ length: 1500 }, (_, index) => index);
    const result = failure(await rest.execute('tag', { tags }, createToolContext()));
    expect(result.error.code).toBe('INVALID_ARGUMENTS');
    // five shown, and the other 1,495 counted (not only the 995 the validator described)
    expect(result.error.message).toMatch(/; and 1495 more$/);
    expect(result.error.details?.issueCount).toBe(1500);
    expect(api.requests).toHaveLength(0);
  });
});
