import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpProviderEvent, McpStdioServerConfig } from '../../src/index.js';

/** Absolute path of a fixture file. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
}

/** A unique tag put on the command line of every process a test starts, for counting. */
export function uniqueTag(): string {
  return `tp-test-${randomUUID()}`;
}

/** Pids of live processes whose command line contains `tag` (only ones this test started). */
export function pidsWithTag(tag: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z' || state === 'X') continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(tag)) out.push(Number(name));
    } catch {
      // gone
    }
  }
  return out;
}

/** Waits until `check` is true, polling, at most `timeoutMs`; returns the last value of check. */
export async function waitFor(check: () => boolean, timeoutMs = 10_000, intervalMs = 25): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; i < Math.ceil(timeoutMs / intervalMs) + 1; i++) {
    if (check()) return true;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return check();
}

/** A fixture server behind a three-level wrapper, like npx -> node -> server, tagged for counting. */
export function wrappedServer(tag: string): McpStdioServerConfig {
  return {
    type: 'stdio',
    command: process.execPath,
    args: [fixture('wrapper.mjs'), '2', process.execPath, fixture('server.mjs'), `--tag=${tag}`],
    healthIntervalMs: 0,
  };
}

/** A stdio config that runs the fixture server with flags. */
export function fixtureServer(
  flags: string[] = [],
  extra: Partial<McpStdioServerConfig> = {},
): McpStdioServerConfig {
  return stdioFixture('server.mjs', flags, extra);
}

/** A stdio config that runs the hand-written hostile server (fixtures/hostile-server.mjs) with flags. */
export function hostileServer(
  flags: string[] = [],
  extra: Partial<McpStdioServerConfig> = {},
): McpStdioServerConfig {
  return stdioFixture('hostile-server.mjs', flags, extra);
}

function stdioFixture(
  file: string,
  flags: string[],
  extra: Partial<McpStdioServerConfig>,
): McpStdioServerConfig {
  return {
    type: 'stdio',
    command: process.execPath,
    args: [fixture(file), ...flags],
    healthIntervalMs: 0,
    ...extra,
  };
}

/** A temporary directory removed by the returned function. */
export function tempDirectory(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'tp-mcp-test-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Collects provider events. */
export function eventLog(): { events: McpProviderEvent[]; onEvent: (event: McpProviderEvent) => void } {
  const events: McpProviderEvent[] = [];
  return { events, onEvent: (event) => events.push(event) };
}
