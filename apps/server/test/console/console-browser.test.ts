import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../helpers/built-server.js';
import { type BuiltProcess, startBuiltProcess } from '../helpers/built-process.js';
import { type OAuthFixture, startOAuthFixture } from '../helpers/oauth-fixture.js';
import { ECHO_TOOL } from '../helpers/test-server.js';

/** Debian's chromium; another path for a machine that keeps it elsewhere. */
const CHROMIUM = process.env.TOOLPLANE_TEST_CHROMIUM || '/usr/bin/chromium';
/** Every wait on the page is bounded by this. */
const WAIT_MS = 15_000;

const unavailable = existsSync(CHROMIUM)
  ? undefined
  : `no Chromium at ${CHROMIUM}: run \`bash tooling/ci/browser.sh\` (installs Debian's chromium)`;

describe('the console in a real browser, on the built server', () => {
  let browser: Browser | undefined;
  let server: BuiltProcess | undefined;
  let fixture: OAuthFixture | undefined;
  let policyDir: string | undefined;
  let url = '';
  let adminKey = '';
  let aliceKey = '';
  let agentKey = '';

  async function api(method: string, path: string, key: string, body?: unknown) {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(WAIT_MS * 2),
    });
    // biome-ignore lint/suspicious/noExplicitAny: tests read answer bodies by path
    return { status: response.status, body: (await response.json()) as any };
  }

  async function ok(method: string, path: string, key: string, body?: unknown) {
    const answer = await api(method, path, key, body);
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async function signIn(page: Page, key: string): Promise<void> {
    await page.goto(`${url}/console`);
    if (await page.locator('#sign-out').isVisible()) await page.click('#sign-out');
    await page.fill('#key', key);
    await page.click('#sign-in button[type=submit]');
  }

  beforeAll(async () => {
    if (unavailable) {
      if (process.env.CI === 'true') throw new Error(`CI=true and ${unavailable}`);
      console.warn(`skipping the console browser test: ${unavailable}`);
      return;
    }
    const main = buildServer();
    fixture = await startOAuthFixture();
    policyDir = mkdtempSync(join(tmpdir(), 'toolplane-console-policy-'));
    const policyFile = join(policyDir, 'policy.json');
    writeFileSync(policyFile, JSON.stringify({ mode: 'bypass', alwaysAsk: ['custom__guarded'] }));
    server = await startBuiltProcess(main, {
      TOOLPLANE_POLICY_FILE: policyFile,
      TOOLPLANE_APPROVAL_TIMEOUT_MS: '60000',
    });
    url = server.url;
    adminKey = server.adminKey;
    await ok('PUT', '/v1/mcp-servers/docs', adminKey, {
      type: 'http',
      url: fixture.mcpUrl,
      auth: 'oauth-per-user',
    });
    await ok('PUT', '/v1/custom-tools/echo', adminKey, ECHO_TOOL);
    await ok('PUT', '/v1/custom-tools/guarded', adminKey, ECHO_TOOL);
    aliceKey = (await ok('POST', '/v1/keys', adminKey, { kind: 'user', principalId: 'alice' })).key;
    agentKey = (await ok('POST', '/v1/keys', adminKey, { kind: 'agent', principalId: 'asker' })).key;
    await ok('POST', '/v1/grants', adminKey, {
      principalKind: 'user',
      principalId: 'alice',
      allow: ['custom__echo', 'docs__*'],
    });
    await ok('POST', '/v1/grants', adminKey, {
      principalKind: 'agent',
      principalId: 'asker',
      allow: ['custom__guarded'],
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], timeout: WAIT_MS });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fixture?.close();
    if (policyDir) rmSync(policyDir, { recursive: true, force: true });
  });

  it('shows the API message for a wrong key and keeps the key out of storage', async ({ skip }) => {
    if (unavailable) return skip(unavailable);
    const context = await (browser as Browser).newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(WAIT_MS);
      await signIn(page, `${aliceKey}wrong`);
      await expect.poll(() => page.textContent('#problem'), { timeout: WAIT_MS }).toMatch(/key/i);
      const problem = (await page.textContent('#problem')) ?? '';
      const answer = await fetch(`${url}/v1/me`, { headers: { authorization: `Bearer ${aliceKey}wrong` } });
      expect(problem).toBe(((await answer.json()) as { error: { message: string } }).error.message);
      expect(await page.isVisible('#sign-in')).toBe(true);
      expect(await page.evaluate<number>('sessionStorage.length')).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('signs a user in, lists their tools, links their account through the real redirect and unlinks it', async ({
    skip,
  }) => {
    if (unavailable) return skip(unavailable);
    const context = await (browser as Browser).newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(WAIT_MS);
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await signIn(page, aliceKey);
      await page.waitForSelector('#tools li[data-tool="custom__echo"]');
      expect(await page.textContent('#who')).toBe('user alice (tenant default)');
      expect(await page.textContent('#tools li[data-tool="custom__echo"] .tool-description')).toBe(
        ECHO_TOOL.description,
      );
      const row = page.locator('#links tr[data-server="docs"]');
      await expect
        .poll(() => row.locator('.link-status').textContent(), { timeout: WAIT_MS })
        .toBe('not linked');

      const exchanges = fixture?.counts.codeExchanges ?? 0;
      await row.locator('button', { hasText: 'Link' }).click();
      // the page went to the authorization server, which approved and sent the browser to the
      // callback, which sent it back here
      await page.waitForSelector('#notice:has-text("Linked docs")');
      expect(new URL(page.url()).pathname).toBe('/console');
      expect(new URL(page.url()).search).toBe('');
      expect(fixture?.counts.codeExchanges).toBe(exchanges + 1);
      expect(requested.some((seen) => seen.startsWith(`${fixture?.origin}/authorize?`))).toBe(true);
      expect(requested.some((seen) => seen.startsWith(`${url}/v1/oauth/callback?`))).toBe(true);
      await expect.poll(() => row.locator('.link-status').textContent(), { timeout: WAIT_MS }).toBe('linked');
      await page.waitForSelector('#tools li[data-tool="docs__whoami"]');
      // the link is the browser's login: calls now run with the token it made
      const whoami = await ok('POST', '/v1/tools/docs__whoami/call', aliceKey, { arguments: {} });
      expect(whoami.result.content[0].text).toMatch(/^user=anonymous /);

      await row.locator('button', { hasText: 'Unlink' }).click();
      await expect
        .poll(() => row.locator('.link-status').textContent(), { timeout: WAIT_MS })
        .toBe('not linked');
      const after = await api('POST', '/v1/tools/docs__whoami/call', aliceKey, { arguments: {} });
      expect(after.body.result.error.details.reason).toBe('AUTH_REQUIRED');

      expect(await page.evaluate<string[]>('Object.values(sessionStorage)')).toEqual([aliceKey]);
      expect(requested.filter((seen) => seen.includes(aliceKey))).toEqual([]);
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows an admin the pending approvals and runs the call on allow once', async ({ skip }) => {
    if (unavailable) return skip(unavailable);
    const context = await (browser as Browser).newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(WAIT_MS);
      const call = api('POST', '/v1/tools/custom__guarded/call', agentKey, {
        arguments: { text: 'from the console' },
      });
      let pending = 0;
      for (let attempt = 0; attempt < 100 && pending === 0; attempt += 1) {
        pending = (await ok('GET', '/v1/approvals', adminKey)).approvals.length;
        if (pending === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(pending).toBe(1);
      await signIn(page, adminKey);
      const item = page.locator('#approvals li', { hasText: 'custom__guarded' });
      await item.waitFor();
      expect(await item.textContent()).toContain('agent asker');
      expect(await page.textContent('#links .explain')).toContain('Sign in with a user key');
      await item.locator('button', { hasText: 'Allow once' }).click();
      await page.waitForSelector('#approvals .empty:visible');
      const answered = await call;
      expect(answered.status).toBe(200);
      expect(answered.body.result.content[0].text).toBe('[from the console]\n');
    } finally {
      await context.close();
    }
  });

  it('shows an approval asked after sign-in without a refresh and drops one answered elsewhere', async ({
    skip,
  }) => {
    if (unavailable) return skip(unavailable);
    const context = await (browser as Browser).newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(WAIT_MS);
      await signIn(page, adminKey);
      await page.waitForSelector('#approvals .empty:visible');
      const call = api('POST', '/v1/tools/custom__guarded/call', agentKey, {
        arguments: { text: 'asked while watching' },
      });
      // the inbox's stream brings it in: nobody clicks refresh
      const item = page.locator('#approvals li', { hasText: 'asked while watching' });
      await item.waitFor();
      const [approval] = (await ok('GET', '/v1/approvals', adminKey)).approvals;
      await ok('POST', `/v1/approvals/${approval.id}`, adminKey, {
        decision: 'deny',
        callId: approval.callId,
        tool: approval.tool,
        argumentsHash: approval.argumentsHash,
      });
      await item.waitFor({ state: 'detached' });
      await page.waitForSelector('#approvals .empty:visible');
      const answered = await call;
      expect([answered.status, answered.body.result.error.code]).toEqual([403, 'DENIED']);
    } finally {
      await context.close();
    }
  });
});
