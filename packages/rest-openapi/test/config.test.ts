import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import {
  type RestProviderOptions,
  type RestToolConfig,
  createRestProvider,
  parseDuration,
} from '../src/index.js';
import { getTool, thrown } from './helpers/bad-input.js';
import { useCleanups } from './helpers/fixtures.js';

const { server, provider } = useCleanups();

describe('bad configuration numbers and shapes', () => {
  it('refuses byte caps, redirects and timeouts that are negative, NaN, text or too large, at creation', () => {
    const url = 'http://127.0.0.1:9/x';
    const toolCases: Array<[Partial<RestToolConfig>, string]> = [
      // -1 would crash the process from inside the body reader (Buffer.concat with -1)
      [{ maxResponseBytes: -1 }, 'maxResponseBytes'],
      // NaN and text would switch the cap off (every comparison with NaN is false)
      [{ maxResponseBytes: Number.NaN }, 'maxResponseBytes'],
      [{ maxResponseBytes: '1MB' as unknown as number }, 'maxResponseBytes'],
      [{ maxRedirects: -1 }, 'maxRedirects'],
      // over 2^31-1 ms Node fires the timer after 1 ms: every call timed out at once
      [{ timeoutMs: 1e10 }, 'timeoutMs'],
      [{ timeoutMs: 0 }, 'timeoutMs'],
      [
        { streaming: { mode: 'json-stream', discriminatorField: 'type', doneValue: 'done', maxBytes: -5 } },
        'streaming.maxBytes',
      ],
      [
        {
          streaming: { mode: 'json-stream', discriminatorField: 'type', doneValue: 'done', timeoutMs: '30d' },
        },
        'streaming.timeoutMs',
      ],
      // an unknown place would send the argument as a cookie
      [
        { parameters: { id: { in: 'body' as 'query' } } },
        'parameters.id.in must be one of path, query, header, cookie',
      ],
    ];
    for (const [extra, field] of toolCases) {
      const error = thrown(() =>
        createRestProvider({ namespace: 'test', tools: { a: getTool(url, extra) }, env: {} }),
      );
      expect(error.code, field).toBe('CONFIG_INVALID');
      expect(error.message).toContain('REST tool "a"');
      expect(error.message).toContain(field);
    }
    const providerCases: Array<[Partial<RestProviderOptions>, string]> = [
      [{ timeoutMs: Number.NaN }, 'timeoutMs'],
      [{ timeoutMs: -5 }, 'timeoutMs'],
      [{ maxResponseBytes: Number.NaN }, 'maxResponseBytes'],
      [{ connections: 0 }, 'connections'],
      [{ connectTimeoutMs: -1 }, 'connectTimeoutMs'],
      [{ headersTimeoutMs: -1 }, 'headersTimeoutMs'],
      [{ bodyTimeoutMs: 1.5 }, 'bodyTimeoutMs'],
    ];
    for (const [extra, field] of providerCases) {
      const error = thrown(() =>
        createRestProvider({ namespace: 'test', tools: { a: getTool(url) }, env: {}, ...extra }),
      );
      expect(error.code, field).toBe('CONFIG_INVALID');
      expect(error.message).toMatch(new RegExp(`^${field} must be`));
    }
    const noTools = thrown(() =>
      createRestProvider({ namespace: 'test', tools: null as unknown as Record<string, RestToolConfig> }),
    );
    expect(noTools.message).toContain('tools must be an object');
    const noNamespace = thrown(() =>
      createRestProvider({ tools: {} } as unknown as Parameters<typeof createRestProvider>[0]),
    );
    expect(noNamespace.message).toContain('namespace must match');
  });

  it('serves a tool whose timeout is the longest a timer can hold', async () => {
    const api = await server();
    const rest = provider({ a: getTool(`${api.origin}/x`, { timeoutMs: 2_147_483_647 }) });
    const result = await rest.execute('a', {}, createToolContext());
    expect(result.ok).toBe(true);
  });
});

describe('durations', () => {
  it('refuses a duration too large to be a number', () => {
    // "1000...0h" would be Infinity
    expect(() => parseDuration(`1${'0'.repeat(400)}h`, 'cache')).toThrow(/cache must be/);
    expect(() =>
      createRestProvider({
        namespace: 'test',
        tools: { a: getTool('https://api.example.test/a', { cache: `1${'0'.repeat(400)}s` }) },
      }),
    ).toThrow(/cache must be/);
  });
});
