import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../src/index.js';
import { failure, getTool, minimal, thrown } from './helpers/bad-input.js';
import { useCleanups } from './helpers/fixtures.js';

const { provider } = useCleanups();

// Sizes where a backtracking regular expression takes minutes (quadratic in the text: 20,000
// characters take about a second, 500,000 take ten minutes). No duration is asserted: the
// test's own timeout is what slow matching would hit.
const SIZE = 500_000;
const TIMEOUT = 60_000;

describe('document and configuration text that made regular expressions backtrack', () => {
  it('imports a server URL with a long run of slashes inside it and after it', {
    timeout: TIMEOUT,
  }, async () => {
    const base = `https://h.test/${'/'.repeat(SIZE)}v1`;
    const document = minimal(
      { '/a': { get: { operationId: 'a' } } },
      { servers: [{ url: `${base}${'/'.repeat(SIZE)}` }] },
    );
    const { tools } = await importOpenApi({ document }, { namespace: 'slashes' });
    // trailing slashes are dropped, the run inside the path is the document's own
    expect(tools.a?.url).toBe(`${base}/a`);
  });

  it('imports a Swagger 2.0 basePath with a long run of slashes', { timeout: TIMEOUT }, async () => {
    const basePath = `/${'/'.repeat(SIZE)}v2`;
    const document = {
      swagger: '2.0',
      info: { title: 'T', version: '1' },
      host: 'h.test',
      schemes: ['https'],
      basePath: `${basePath}${'/'.repeat(SIZE)}`,
      paths: { '/a': { get: { operationId: 'a', responses: {} } } },
    };
    const { tools } = await importOpenApi({ document }, { namespace: 'swagger' });
    expect(tools.a?.url).toBe(`https://h.test${basePath}/a`);
  });

  it('matches include and exclude wildcards against long operationIds and paths', {
    timeout: TIMEOUT,
  }, async () => {
    const long = 'a'.repeat(SIZE);
    const document = minimal({
      [`/x/${long}`]: { get: { operationId: long } },
      [`/y/${long}b/c`]: { get: { operationId: `${long}b` } },
    });
    const byId = await importOpenApi({ document }, { namespace: 'ids', include: { operationIds: ['*a*b'] } });
    expect(Object.values(byId.tools).map((tool) => tool.operationId)).toEqual([`${long}b`]);
    const byPath = await importOpenApi(
      { document },
      { namespace: 'paths', include: { paths: ['/**a**c'] }, exclude: { paths: ['/x/*a*b'] } },
    );
    expect(Object.values(byPath.tools).map((tool) => tool.operationId)).toEqual([`${long}b`]);
  });

  it('refuses a hand-written url with a long host and a fragment', { timeout: TIMEOUT }, async () => {
    const tools = provider({ t: getTool(`http://${'a'.repeat(SIZE)}#`) });
    const result = failure(await tools.execute('t', {}, createToolContext()));
    expect(result.error.code).toBe('CONFIG_INVALID');
    expect(result.error.message).toContain('without a fragment');
  });

  it('refuses a hand-written url path of unclosed ${ when the provider is created', {
    timeout: TIMEOUT,
  }, () => {
    const error = thrown(() => provider({ t: getTool(`http://a.test/${'${'.repeat(SIZE / 2)}`) }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('outside a {name} placeholder');
  });

  it('refuses a duration of a number, a long run of spaces and no unit', { timeout: TIMEOUT }, () => {
    const error = thrown(() =>
      provider({ t: getTool('http://a.test/x', { timeoutMs: `1${' '.repeat(SIZE)}x` }) }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('timeoutMs');
  });
});
