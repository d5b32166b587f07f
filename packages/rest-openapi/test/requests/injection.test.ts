import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { objectSchema, useCleanups } from '../helpers/fixtures.js';

const { server, provider } = useCleanups();

const HOSTILE = [
  '../admin',
  '..',
  '.',
  '%2e%2e',
  '%2E%2E/secret',
  '..%2f..%2fetc',
  'a/../../b',
  'x?admin=true',
  'x#fragment',
  'user@evil.example',
  '@evil.example',
  '//evil.example/x',
  'http://evil.example/',
  'line\r\nX-Injected: 1',
  'a\nb',
  'tab\there',
  'semi;colon=1',
  'spaces and ünïcode',
];

describe('argument injection', () => {
  it('keeps every hostile path argument inside one path segment of the configured host', async () => {
    const evil = await server();
    const api = await server();
    const rest = provider({
      get: {
        description: 'd',
        method: 'GET',
        url: `${api.origin}/files/{name}/meta`,
        parametersSchema: objectSchema({ name: { type: 'string' } }, ['name']),
      },
    });
    let sent = 0;
    for (const value of HOSTILE) {
      const result = await rest.execute('get', { name: value }, createToolContext());
      if (value === '..' || value === '.') {
        expect(result.ok === false && result.error.code, value).toBe('INVALID_ARGUMENTS');
        continue;
      }
      expect(result.ok, value).toBe(true);
      sent++;
      const recorded = api.requests.at(-1);
      const url = recorded?.url ?? '';
      // exactly /files/<one segment>/meta, no query, no fragment, and the segment decodes back to the value
      const match = /^\/files\/([^/?#]+)\/meta$/.exec(url);
      expect(match, `${value} -> ${url}`).not.toBeNull();
      expect(decodeURIComponent(match?.[1] ?? ''), value).toBe(value);
      expect(recorded?.headers['x-injected']).toBeUndefined();
      expect(recorded?.headers.host).toBe(api.host);
    }
    expect(api.requests).toHaveLength(sent);
    expect(evil.requests).toHaveLength(0);
  });

  it('keeps hostile query values inside their own parameter', async () => {
    const api = await server();
    const rest = provider({
      search: {
        description: 'd',
        method: 'GET',
        url: `${api.origin}/search`,
        parametersSchema: objectSchema({ q: { type: 'string' } }),
      },
    });
    for (const value of HOSTILE) {
      const result = await rest.execute('search', { q: value }, createToolContext());
      expect(result.ok, value).toBe(true);
      const url = api.requests.at(-1)?.url ?? '';
      expect(url.startsWith('/search?q='), url).toBe(true);
      const query = new URLSearchParams(url.slice('/search?'.length));
      expect([...query.keys()]).toEqual(['q']);
      expect(query.get('q')).toBe(value);
    }
  });

  it('refuses header values with CR or LF from arguments, and sends nothing', async () => {
    const api = await server();
    const rest = provider({
      tagged: {
        description: 'd',
        method: 'GET',
        url: `${api.origin}/t`,
        headers: { 'x-tag': '{{tag}}' },
        parametersSchema: objectSchema({ tag: { type: 'string' } }),
      },
      bound: {
        description: 'd',
        method: 'GET',
        url: `${api.origin}/b`,
        parameters: { requestId: { in: 'header', name: 'X-Request-Id' } },
        parametersSchema: objectSchema({ requestId: { type: 'string' } }),
      },
    });
    for (const value of ['a\r\nX-Injected: 1', 'a\nb', 'a\rb', 'nul\0byte']) {
      const tagged = await rest.execute('tagged', { tag: value }, createToolContext());
      expect(tagged.ok === false && tagged.error.code, value).toBe('INVALID_ARGUMENTS');
      const bound = await rest.execute('bound', { requestId: value }, createToolContext());
      expect(bound.ok === false && bound.error.code, value).toBe('INVALID_ARGUMENTS');
    }
    expect(api.requests).toHaveLength(0);
    const fine = await rest.execute('bound', { requestId: 'r-1' }, createToolContext());
    expect(fine.ok).toBe(true);
    expect(api.requests[0]?.headers['x-request-id']).toBe('r-1');
  });

  it('refuses credentials from the environment that contain line breaks', async () => {
    const api = await server();
    const rest = provider(
      {
        get: {
          description: 'd',
          method: 'GET',
          url: `${api.origin}/x`,
          headers: { 'x-key': '${KEY}' },
          parametersSchema: objectSchema({}),
        },
        bearer: {
          description: 'd',
          method: 'GET',
          url: `${api.origin}/y`,
          auth: { type: 'bearer', token: '${KEY}' },
          parametersSchema: objectSchema({}),
        },
      },
      { env: { KEY: 'abc\r\nX-Injected: 1' } },
    );
    for (const tool of ['get', 'bearer']) {
      const result = await rest.execute(tool, {}, createToolContext());
      expect(result.ok === false && result.error.code, tool).toBe('CONFIG_INVALID');
    }
    expect(api.requests).toHaveLength(0);
  });

  it('refuses a URL whose host part has user info or placeholders', async () => {
    for (const url of ['http://user@127.0.0.1/x', 'http://{host}/x', 'http://127.0.0.1/x#frag']) {
      const rest = provider({
        t: {
          description: 'd',
          method: 'GET',
          url,
          parametersSchema: objectSchema({ host: { type: 'string' } }),
        },
      });
      const result = await rest.execute('t', { host: 'evil.example' }, createToolContext());
      expect(result.ok === false && result.error.code, url).toBe('CONFIG_INVALID');
    }
  });
});
