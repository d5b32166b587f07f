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
import { afterEach, beforeEach } from 'vitest';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/index.js';

/** A fresh temp directory (real path) and its removal. */
export async function makeTempDir(
  prefix = 'tp-builtin-',
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A temp workspace and a provider on it with the default options, made before each test of
 * the calling file and closed and removed after it.
 */
export function useWorkspace(): { readonly dir: string; readonly provider: BuiltinProvider } {
  let current: { dir: string; cleanup: () => Promise<void>; provider: BuiltinProvider } | undefined;
  beforeEach(async () => {
    const { dir, cleanup } = await makeTempDir();
    current = { dir, cleanup, provider: createBuiltinProvider({ workspace: dir }) };
  });
  afterEach(async () => {
    await current?.provider.close?.();
    await current?.cleanup();
    current = undefined;
  });
  const now = () => {
    if (!current) throw new Error('useWorkspace: used outside a test');
    return current;
  };
  return {
    get dir() {
      return now().dir;
    },
    get provider() {
      return now().provider;
    },
  };
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

/** Whether the CI flag is set (tests that cannot start must fail there instead of skipping). */
export const inCI = process.env.CI === 'true';

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

/** A deterministic pseudo-random generator in [0, 1): tests must not depend on luck. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** "\n" bytes in `data[0 .. end)`. */
export function newlinesBefore(data: Uint8Array, end = data.length): number {
  let count = 0;
  for (let at = data.indexOf(10); at !== -1 && at < end; at = data.indexOf(10, at + 1)) count++;
  return count;
}

/** Asserts a failure and returns its error. */
export function failure(result: ToolResult): { code: string; message: string } {
  if (result.ok) throw new Error(`expected a failure, got: ${textOf(result)}`);
  return result.error;
}
