import { createToolContext } from '@toolplane/core';
import {
  type McpProvider,
  type McpProviderOptions,
  type McpServerConfig,
  createMcpProvider,
} from '../../src/index.js';
import { type RunningHttpFixture, startHttpFixture } from './http-fixture.js';
import { fixture } from './index.js';

/** The client generations and transports every server-request test runs on. */
export const PATHS = [
  { client: 'v1', transport: 'stdio' },
  { client: 'v1', transport: 'http' },
  { client: 'v2', transport: 'stdio' },
  { client: 'v2', transport: 'http' },
] as const;
export type AskingPath = (typeof PATHS)[number];

/** One HTTP process of test/fixtures/client-asks-server.mjs for a file's tests (a session each). */
export function askingHttpServer(): { start(): Promise<void>; url(): string; close(): Promise<void> } {
  let running: RunningHttpFixture | undefined;
  return {
    async start() {
      running = await startHttpFixture(['--http'], 'client-asks-server.mjs');
    },
    url: () => `http://127.0.0.1:${running?.port}/mcp`,
    close: async () => running?.close(),
  };
}

/** A config of the asking server on one path. */
export function askingConfig(path: AskingPath, url: () => string): McpServerConfig {
  return path.transport === 'stdio'
    ? {
        type: 'stdio',
        command: process.execPath,
        args: [fixture('client-asks-server.mjs')],
        client: path.client,
        healthIntervalMs: 0,
      }
    : { type: 'http', url: url(), client: path.client, healthIntervalMs: 0 };
}

/** Starts a provider of the asking server; `close()` when done. */
export async function askingProvider(
  path: AskingPath,
  url: () => string,
  options: McpProviderOptions,
): Promise<McpProvider> {
  const provider = createMcpProvider('asks', askingConfig(path, url), options);
  await provider.start?.(AbortSignal.timeout(30_000));
  return provider;
}

/** Calls a tool and returns its text (throws when the call failed). */
export async function callText(
  provider: McpProvider,
  tool: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  const result = await provider.execute(tool, args, createToolContext());
  if (!result.ok) throw new Error(`${tool} failed: ${result.error.code} ${result.error.message}`);
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}
