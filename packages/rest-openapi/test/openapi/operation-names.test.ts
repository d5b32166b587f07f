import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../../src/index.js';
import { minimal } from '../helpers/bad-input.js';

describe('tool names that collide after sanitising', () => {
  it('give an operationId that is already a clean name to its own operation, before any suffix or made-up name', async () => {
    const document = minimal({
      '/1': { get: { operationId: 'a_b' } },
      '/2': { get: { operationId: 'a/b' } },
      '/3': { get: { operationId: 'a_b_2' } },
      '/5': { get: {} },
      '/6': { post: { operationId: 'get_5' } },
      '/7': { get: { operationId: 'a_b' } },
    });
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'names' });
    const urls = Object.fromEntries(
      Object.entries(tools).map(([name, tool]) => [name, new URL(tool.url).pathname]),
    );
    // "a_b_2" and "get_5" belong to /3 and /6, which are called so; /2 and /5 get other names
    expect(urls.a_b_2).toBe('/3');
    expect(urls.get_5).toBe('/6');
    expect(urls.a_b).toBe('/1');
    expect(new Set(Object.values(urls))).toEqual(new Set(['/1', '/2', '/3', '/5', '/6', '/7']));
    const text = warnings.join('\n');
    expect(text).toContain('GET /2: the name a_b was already taken; named it a_b_3');
    expect(text).toContain('GET /5: the name get_5 was already taken; named it get_5_2');
    expect(text).toContain('GET /7: the name a_b was already taken; named it a_b_4');
  });
});
