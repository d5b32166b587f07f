import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ToolContext,
  type ToolContextInit,
  type ToolResult,
  contentText,
  createToolContext,
} from '@toolplane/core';

/** Whether the CI flag is set (tests that cannot start must fail there instead of skipping). */
export const inCI = process.env.CI === 'true';

/** A fresh temp directory (real path) and its removal. */
export async function makeTempDir(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A tool context for session `sessionId`. */
export function context(sessionId = 's1', init: ToolContextInit = {}): ToolContext {
  return createToolContext({ ...init, session: { id: sessionId, ...init.session } });
}

/** Text of a result (content of a success, message plus content of a failure). */
export function textOf(result: ToolResult): string {
  if (result.ok) return contentText(result.content);
  return `${result.error.code}: ${result.error.message}${result.content ? `\n${contentText(result.content)}` : ''}`;
}

/** Asserts a success and returns its text. */
export function okText(result: ToolResult): string {
  if (!result.ok) throw new Error(`expected success, got ${result.error.code}: ${result.error.message}`);
  return contentText(result.content);
}

/** Polls `check` every 20 ms up to `limitMs`; bounded. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  limitMs = 10_000,
): Promise<boolean> {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((done) => setTimeout(done, 20));
  }
  return check();
}
