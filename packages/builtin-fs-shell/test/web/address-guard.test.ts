import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, makeTempDir, okText, textOf } from '../helpers/index.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';
import { addressRange } from '@toolplane/address-guard';

// The guard of web_fetch: non-public addresses are refused in every spelling, on every redirect
// hop, without a connection to them. The loopback server counts the requests that reach it.

let server: Server;
let port: number;
let requests = 0;
let dir: string;
let cleanup: () => Promise<void>;
let guarded: BuiltinProvider;
let partlyOpen: BuiltinProvider;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('tp-web-guard-'));
  server = createServer((request, response) => {
    requests++;
    const url = request.url ?? '/';
    const send = (status: number, body: string, headers: Record<string, string> = {}): void => {
      response.writeHead(status, { 'content-type': 'text/plain', ...headers });
      response.end(body);
    };
    if (url === '/html') send(200, 'page');
    else if (url === '/text') send(200, 'plain words\n');
    else if (url === '/redirect-inward') send(302, '', { location: `http://127.0.0.2:${port}/html` });
    else if (url === '/redirect-v6') send(302, '', { location: `http://[::1]:${port}/html` });
    else send(404, 'unknown');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  guarded = createBuiltinProvider({ workspace: dir });
  partlyOpen = createBuiltinProvider({ workspace: dir, webFetch: { allowedRanges: ['127.0.0.1/32'] } });
});

afterAll(async () => {
  await guarded?.close?.();
  await partlyOpen?.close?.();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await cleanup();
});

const fetch = (provider: BuiltinProvider, args: Record<string, unknown>) =>
  provider.execute('web_fetch', args, context());

describe('web_fetch address guard', () => {
  const inward = (): string[] => [
    `http://127.0.0.1:${port}/html`,
    `http://127.1:${port}/html`,
    `http://0x7f.1:${port}/html`,
    `http://0177.0.0.1:${port}/html`,
    `http://2130706433:${port}/html`,
    `http://[::ffff:127.0.0.1]:${port}/html`,
    `http://[::ffff:7f00:1]:${port}/html`,
    `http://[::1]:${port}/html`,
    `http://localhost:${port}/html`,
    `http://0.0.0.0:${port}/html`,
    `http://0:${port}/html`,
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://[fe80::1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://224.0.0.1/',
    'https://127.0.0.1/',
  ];

  it('refuses private, loopback, link-local and metadata addresses in every spelling, without connecting', async () => {
    const before = requests;
    const failures: string[] = [];
    for (const url of inward()) {
      const result = await fetch(guarded, { url });
      if (result.ok || result.error.code !== 'DENIED') failures.push(`${url}: ${textOf(result)}`);
    }
    expect(failures).toEqual([]);
    expect(requests).toBe(before);
  });

  it('checks every redirect hop', async () => {
    // 127.0.0.1 is opened for this provider; the redirect leads to other loopback addresses.
    expect(okText(await fetch(partlyOpen, { url: `http://127.0.0.1:${port}/text` }))).toContain(
      'plain words',
    );
    const before = requests;
    expect(textOf(await fetch(partlyOpen, { url: `http://127.0.0.1:${port}/redirect-inward` }))).toMatch(
      /^DENIED: .*127\.0\.0\.2 \(loopback\)/,
    );
    expect(textOf(await fetch(partlyOpen, { url: `http://127.0.0.1:${port}/redirect-v6` }))).toMatch(
      /^DENIED: .*::1 \(loopback\)/,
    );
    expect(requests).toBe(before + 2);
  });

  it('classifies addresses with ipaddr.js ranges', () => {
    expect(addressRange('8.8.8.8')).toBe('unicast');
    expect(addressRange('2606:4700::1111')).toBe('unicast');
    expect(addressRange('::ffff:10.0.0.1')).toBe('private');
    expect(addressRange('169.254.169.254')).toBe('linkLocal');
    expect(addressRange('not-an-ip')).toBe('invalid');
  });
});
