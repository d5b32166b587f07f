import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, waitFor } from './helpers.js';
import {
  MUST_RUN,
  bwrapUnavailable,
  containersOf,
  dockerUnavailable,
  sandboxWorkspace,
} from './sandbox-helpers.js';

// The gateway's bash calls come from a model with nobody at a terminal: what the policy asks
// fails closed, unless `sandbox.autoAllow` lets the sandbox answer the questions it contains.

let noBwrap: string | undefined;
let noDocker: string | undefined;
beforeAll(async () => {
  [noBwrap, noDocker] = await Promise.all([bwrapUnavailable(), dockerUnavailable()]);
  if ((noBwrap || noDocker) && MUST_RUN) throw new Error(`CI=true: ${noBwrap ?? noDocker}`);
});

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
});

type CallResult = { content: { type: string; text?: string }[]; isError?: boolean };

async function gateway(cwd: string): Promise<{ client: Client; transport: StdioClientTransport }> {
  const client = new Client({ name: 'sandbox-test', version: '1' });
  clients.push(client);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', 'mcp', '--stdio'],
    cwd,
    env: baseEnv() as Record<string, string>,
    stderr: 'pipe',
  });
  await client.connect(transport);
  return { client, transport };
}

async function bash(client: Client, command: string): Promise<{ isError: boolean; text: string }> {
  const result = (await client.callTool({ name: 'bash', arguments: { command } })) as CallResult;
  return {
    isError: result.isError === true,
    text: result.content.map((block) => block.text ?? '').join('\n'),
  };
}

const POLICY = 'policy: { commands: { deny: ["touch *"], ask: ["cat *"] } }\n';

describe('serve mcp with sandbox.autoAllow', () => {
  it('runs a command no allow rule covers without asking; deny and ask rules still hold', async (context) => {
    if (noBwrap) context.skip(noBwrap);
    const work = await sandboxWorkspace('{ kind: bwrap, autoAllow: true }', POLICY);
    try {
      const { client } = await gateway(work.path);
      const made = await bash(client, 'echo contained > out.txt && id -u');
      expect(made.isError).toBe(false);
      expect(made.text).not.toMatch(/^0$/m);
      expect(await readFile(join(work.path, 'out.txt'), 'utf8')).toBe('contained\n');
      const denied = await bash(client, 'touch denied.txt');
      expect(denied.isError).toBe(true);
      expect(denied.text).toMatch(/DENIED/);
      expect(denied.text).toContain('touch *');
      expect(existsSync(join(work.path, 'denied.txt'))).toBe(false);
      const asked = await bash(client, 'cat out.txt');
      expect(asked.isError).toBe(true);
      expect(asked.text).toMatch(/APPROVAL_REQUIRED/);
      expect(asked.text).toContain('cat *');
    } finally {
      await work.cleanup();
    }
  });

  it('runs a background task in the sandbox too', async (context) => {
    if (noBwrap) context.skip(noBwrap);
    const work = await sandboxWorkspace('{ kind: bwrap, autoAllow: true }');
    try {
      const { client } = await gateway(work.path);
      const started = (await client.callTool({
        name: 'bash',
        arguments: { command: 'pwd; id -u', run_in_background: true },
      })) as CallResult & { structuredContent?: { taskId?: string } };
      expect(started.isError).toBeFalsy();
      const taskId = started.structuredContent?.taskId as string;
      expect(taskId).toBeTruthy();
      const output = (await client.callTool({
        name: 'task_output',
        arguments: { task_id: taskId, block: true },
      })) as CallResult;
      const text = output.content.map((block) => block.text ?? '').join('\n');
      expect(text).toMatch(/^\/workspace$/m);
      expect(text).not.toMatch(/^0$/m);
    } finally {
      await work.cleanup();
    }
  });

  it('asks (and fails closed) for the same command without autoAllow', async (context) => {
    if (noBwrap) context.skip(noBwrap);
    const work = await sandboxWorkspace('{ kind: bwrap }', POLICY);
    try {
      const { client } = await gateway(work.path);
      const asked = await bash(client, 'echo contained > out.txt');
      expect(asked.isError).toBe(true);
      expect(asked.text).toMatch(/APPROVAL_REQUIRED/);
      expect(existsSync(join(work.path, 'out.txt'))).toBe(false);
    } finally {
      await work.cleanup();
    }
  });
});

describe('serve mcp with sandbox kind docker', () => {
  it("runs the model's commands in a container and removes it when the gateway stops", async (context) => {
    if (noDocker) context.skip(noDocker);
    const work = await sandboxWorkspace('{ kind: docker, autoAllow: true }');
    try {
      const { client, transport } = await gateway(work.path);
      const pid = transport.pid as number;
      const inside = await bash(client, 'pwd');
      expect(inside.isError).toBe(false);
      expect(inside.text).toMatch(/^\/workspace$/m);
      expect((await containersOf(pid)).length).toBe(1);
      await client.close();
      // the gateway ends with its stdin and closes its runtime: the container goes with it
      expect(await waitFor(async () => (await containersOf(pid)).length === 0, 60_000, 500)).toBe(true);
    } finally {
      await work.cleanup();
    }
  });
});
