import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP } from '../../src/console/console-headers.js';
import { type TestServer, startTestServer } from '../helpers/test-server.js';

describe('the console files', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves the page with a strict Content-Security-Policy and no inline script or style', async () => {
    const page = await fetch(`${t.url}/console`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toBe(CONSOLE_CSP);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBe(1);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/console\/[^"]+"/);
      expect(body?.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=|javascript:/i);
    for (const [, url] of html.matchAll(/(?:src|href)="([^"]+)"/g)) expect(url).toMatch(/^\/console\//);
  });

  it('serves its script and style from the same origin with the same policy', async () => {
    for (const [path, type] of [
      ['/console/console.js', 'text/javascript; charset=utf-8'],
      ['/console/console.css', 'text/css; charset=utf-8'],
    ] as const) {
      const answer = await fetch(`${t.url}${path}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe(type);
      expect(answer.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
      expect((await answer.text()).length).toBeGreaterThan(100);
    }
    const script = await (await fetch(`${t.url}/console/console.js`)).text();
    // the key goes only into sessionStorage and the Authorization header
    expect(script).not.toMatch(/localStorage|document\.cookie|innerHTML|eval\(/);
  });

  it('sends /console/ to /console and answers 404 for a file it does not have', async () => {
    const slash = await fetch(`${t.url}/console/`, { redirect: 'manual' });
    expect(slash.status).toBe(308);
    expect(slash.headers.get('location')).toBe('/console');
    const missing = await t.api('GET', '/console/secret.key');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBeDefined();
  });
});
