import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type OAuthFixture,
  type OAuthFixtureOptions,
  followAuthorization,
  startOAuthFixture,
} from '../../../packages/mcp-provider/test/helpers/oauth-fixture.js';
import { finished, runCli, startCli } from './helpers.js';

let fixture: OAuthFixture | undefined;
let dir: string | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
  await fixture?.close();
  fixture = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function setUp(options: OAuthFixtureOptions = {}) {
  fixture = await startOAuthFixture(options);
  dir = await mkdtemp(join(tmpdir(), 'tp-cli-login-'));
  const config = join(dir, 'mcp.json');
  await writeFile(config, JSON.stringify({ mcpServers: { docs: { type: 'http', url: fixture.mcpUrl } } }));
  const tokenFile = join(dir, 'config', 'toolplane', 'mcp-tokens.json');
  // CI keeps the browser closed; the token file is the test's own
  const env = { CI: '1', TOOLPLANE_TOKEN_FILE: tokenFile };
  return { config, tokenFile, env, cwd: dir };
}

/** Reads the child's stderr until the authorization URL is printed (bounded). */
function printedUrl(process: ChildProcess, timeoutMs = 30_000): Promise<URL> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no authorization URL printed: ${text}`)), timeoutMs);
    process.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /^\s+(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(new URL(match[1] as string));
      }
    });
  });
}

describe('toolplane mcp login', () => {
  it('prints the URL, takes the redirect on 127.0.0.1, stores tokens (0600) that tools calls then use', async () => {
    const { config, tokenFile, env, cwd } = await setUp();
    const before = await runCli(['--config', config, 'doctor'], { cwd, env });
    expect(before.stdout + before.stderr).toContain('toolplane mcp login docs');

    child = startCli(['--config', config, 'mcp', 'login', 'docs'], { cwd, env });
    const outcome = finished(child);
    const url = await printedUrl(child);
    const { location } = await followAuthorization(url);
    expect(location.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const landing = await fetch(location);
    expect(landing.status).toBe(200);
    const done = await outcome;
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('Logged in to docs');
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(tokenFile, 'utf8'));
    const access = stored.servers.docs.tokens.access_token as string;
    expect(done.stdout + done.stderr).not.toContain(access);

    const list = await runCli(['--config', config, 'tools', 'list', '--json'], { cwd, env });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('whoami');
    const after = await runCli(['--config', config, 'doctor'], { cwd, env });
    expect(after.stdout + after.stderr).not.toContain('toolplane mcp login docs');

    const logout = await runCli(['--config', config, 'mcp', 'logout', 'docs'], { cwd, env });
    expect(logout.code).toBe(0);
    expect(JSON.parse(await readFile(tokenFile, 'utf8')).servers.docs).toBeUndefined();
  });

  it('refuses a redirect with another state and stores nothing', async () => {
    const { config, tokenFile, env, cwd } = await setUp({ wrongState: 'not-the-sent-state' });
    child = startCli(['--config', config, 'mcp', 'login', 'docs'], { cwd, env });
    const outcome = finished(child);
    const { location } = await followAuthorization(await printedUrl(child));
    await fetch(location);
    const done = await outcome;
    expect(done.code).toBe(1);
    expect(done.stderr).toMatch(/DENIED.*state/);
    const stored = JSON.parse(await readFile(tokenFile, 'utf8'));
    expect(stored.servers.docs.tokens).toBeUndefined();
  });

  it('gives up when no redirect comes within --timeout', async () => {
    const { config, env, cwd } = await setUp();
    const done = await runCli(['--config', config, 'mcp', 'login', 'docs', '--timeout', '1'], { cwd, env });
    expect(done.code).toBe(1);
    expect(done.stderr).toContain('no redirect reached the login');
  });

  it('names the remote servers when the one given is not in the config', async () => {
    const { config, env, cwd } = await setUp();
    const done = await runCli(['--config', config, 'mcp', 'login', 'nope'], { cwd, env });
    expect(done.code).toBe(2);
    expect(done.stderr).toContain('remote servers: docs');
  });
});
