import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BIN,
  GATEWAY_TRANSPORT_OPTIONS,
  baseEnv,
  exited,
  fixturePids,
  fixtureServer,
  gatewayUrl,
  isAlive,
  startCli,
  tempDir,
  writeJsonFile,
} from './helpers.js';

// A call the policy asks about, served by `serve mcp` without a terminal: the question goes to
// the gateway's client as `elicitation/create` when it declared elicitation; otherwise the call
// is refused with what to change in which file. The built-in `write` and the fixture's
// `write_note` change state, so the default policy asks before each.

let dir: { path: string; cleanup(): Promise<void> };
let pidDir: string;
const started: ChildProcess[] = [];
const clients: Client[] = [];

beforeEach(async () => {
  dir = await tempDir();
  pidDir = join(dir.path, 'pids');
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    mcpServers: { notes: fixtureServer({ FIXTURE_PID_DIR: pidDir }) },
    builtin: { workspace: '.', tools: ['read', 'write'] },
  });
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  for (const child of started.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited(child, 20_000);
  }
  for (const pid of await fixturePids(pidDir)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await dir.cleanup();
});

type Transport = 'stdio' | 'http';
type CallResult = { content: { type: string; text?: string }[]; isError?: boolean };

/** A client of a gateway started in `dir`, with or without elicitation. */
async function connect(
  transport: Transport,
  options: { elicitation: boolean; configArgs?: string[] },
): Promise<Client> {
  const configArgs = options.configArgs ?? [];
  const client = new Client(
    { name: 'approvals-test', version: '1.0.0' },
    { capabilities: options.elicitation ? { elicitation: {} } : {} },
  );
  clients.push(client);
  if (transport === 'stdio') {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, ...configArgs, 'serve', 'mcp', '--stdio'],
        cwd: dir.path,
        env: baseEnv() as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    return client;
  }
  const child = startCli([...configArgs, 'serve', 'mcp', '--http', '127.0.0.1:0'], { cwd: dir.path });
  started.push(child);
  const url = await gatewayUrl(child);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), GATEWAY_TRANSPORT_OPTIONS));
  return client;
}

/** Answers every elicitation with the next of `answers` (deny once they run out); counts them. */
function answerWith(client: Client, answers: ElicitResult[]): { messages: string[]; forms: unknown[] } {
  const seen = { messages: [] as string[], forms: [] as unknown[] };
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    seen.messages.push(String(request.params.message));
    seen.forms.push((request.params as { requestedSchema?: unknown }).requestedSchema);
    return answers.shift() ?? { action: 'accept', content: { decision: 'deny' } };
  });
  return seen;
}

const decide = (decision: string): ElicitResult => ({ action: 'accept', content: { decision } });
const textOf = (result: unknown): string =>
  (result as CallResult).content.map((block) => block.text ?? '').join('\n');

describe.each<Transport>(['stdio', 'http'])('approvals asked of the client over %s', (transport) => {
  it('runs a call the client allows once, and asks again for the next', async () => {
    const client = await connect(transport, { elicitation: true });
    const seen = answerWith(client, [decide('allow-once'), decide('allow-once')]);
    const first = (await client.callTool({
      name: 'write',
      arguments: { path: 'once.txt', content: 'first' },
    })) as CallResult;
    expect(first.isError).toBeFalsy();
    expect(await readFile(join(dir.path, 'once.txt'), 'utf8')).toBe('first');
    expect(seen.messages).toHaveLength(1);
    expect(seen.messages[0]).toContain('Approval needed: write (risk medium)');
    expect(seen.messages[0]).toContain('once.txt');
    expect(seen.messages[0]).toMatch(/No answer in \d+ s denies/);
    expect(seen.forms[0]).toMatchObject({
      type: 'object',
      required: ['decision'],
      properties: {
        decision: {
          type: 'string',
          oneOf: [{ const: 'allow-once' }, { const: 'allow-always' }, { const: 'deny' }],
        },
      },
    });
    const second = (await client.callTool({
      name: 'write',
      arguments: { path: 'once.txt', content: 'second' },
    })) as CallResult;
    expect(second.isError).toBeFalsy();
    expect(seen.messages).toHaveLength(2);
  });

  it('refuses a call the client denies, and the tool does not run', async () => {
    const client = await connect(transport, { elicitation: true });
    const seen = answerWith(client, [decide('deny')]);
    const result = await client.callTool({ name: 'write', arguments: { path: 'denied.txt', content: 'no' } });
    expect((result as CallResult).isError).toBe(true);
    expect(textOf(result)).toContain('DENIED');
    expect(seen.messages).toHaveLength(1);
    await expect(readFile(join(dir.path, 'denied.txt'), 'utf8')).rejects.toThrow();
  });

  it('does not ask again in the session after allow-always', async () => {
    const client = await connect(transport, { elicitation: true });
    const seen = answerWith(client, [decide('allow-always')]);
    for (const text of ['one', 'two', 'three']) {
      const result = await client.callTool({ name: 'notes__write_note', arguments: { text } });
      expect((result as CallResult).isError).toBeFalsy();
      expect(textOf(result)).toContain(`stored: ${text}`);
    }
    expect(seen.messages).toHaveLength(1);
  });

  it('refuses a call whose question the client declines or cancels', async () => {
    const client = await connect(transport, { elicitation: true });
    const seen = answerWith(client, [{ action: 'decline' }, { action: 'cancel' }]);
    for (const path of ['declined.txt', 'cancelled.txt']) {
      const result = await client.callTool({ name: 'write', arguments: { path, content: 'no' } });
      expect((result as CallResult).isError).toBe(true);
      expect(textOf(result)).toContain('DENIED');
      await expect(readFile(join(dir.path, path), 'utf8')).rejects.toThrow();
    }
    expect(seen.messages).toHaveLength(2);
  });

  it('refuses a call whose question the client leaves unanswered past the approval timeout', async () => {
    await writeJsonFile(dir.path, 'toolplane.config.json', {
      builtin: { workspace: '.', tools: ['read', 'write'] },
      limits: { approvalTimeoutMs: 1000 },
    });
    const client = await connect(transport, { elicitation: true });
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, async (_request, extra) => {
      asked++;
      // never answers; gives up only when the gateway cancels the question
      await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve()));
      return { action: 'cancel' };
    });
    const result = await client.callTool({ name: 'write', arguments: { path: 'late.txt', content: 'no' } });
    expect((result as CallResult).isError).toBe(true);
    expect(textOf(result)).toMatch(/DENIED: no approval for write within 1 s/);
    expect(asked).toBe(1);
    await expect(readFile(join(dir.path, 'late.txt'), 'utf8')).rejects.toThrow();
  });

  it('refuses a call for a client without elicitation, naming the config file and policy.autoAllow', async () => {
    const client = await connect(transport, { elicitation: false });
    const result = await client.callTool({
      name: 'write',
      arguments: { path: 'refused.txt', content: 'no' },
    });
    expect((result as CallResult).isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('APPROVAL_REQUIRED');
    expect(text).toContain('did not declare elicitation');
    expect(text).toContain('policy.autoAllow');
    expect(text).toContain(join(dir.path, 'toolplane.config.json'));
    await expect(readFile(join(dir.path, 'refused.txt'), 'utf8')).rejects.toThrow();
  });

  it("with an MCP client's config file, says to write a toolplane.config.json", async () => {
    const clientFile = await writeJsonFile(dir.path, 'claude_desktop_config.json', {
      mcpServers: { notes: fixtureServer({ FIXTURE_PID_DIR: pidDir }) },
      globalShortcut: '',
    });
    const client = await connect(transport, { elicitation: false, configArgs: ['--config', clientFile] });
    const result = await client.callTool({ name: 'notes__write_note', arguments: { text: 'no' } });
    expect((result as CallResult).isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('APPROVAL_REQUIRED');
    expect(text).toContain(`${clientFile}, is an MCP client's file`);
    expect(text).toContain('write a toolplane.config.json');
    expect(text).toContain('"autoAllow": ["notes__write_note"]');
  });
});

describe('approvals asked of clients over http', () => {
  it('remembers allow-always until the gateway stops, for its other clients too', async () => {
    const child = startCli(['serve', 'mcp', '--http', '127.0.0.1:0'], { cwd: dir.path });
    started.push(child);
    const url = new URL(await gatewayUrl(child));
    const open = async (): Promise<{ client: Client; seen: { messages: string[] } }> => {
      const client = new Client(
        { name: 'approvals-test', version: '1.0.0' },
        { capabilities: { elicitation: {} } },
      );
      clients.push(client);
      const seen = answerWith(client, [decide('allow-always')]);
      await client.connect(new StreamableHTTPClientTransport(url, GATEWAY_TRANSPORT_OPTIONS));
      return { client, seen };
    };
    const first = await open();
    const second = await open();
    const asked = await first.client.callTool({ name: 'notes__write_note', arguments: { text: 'a' } });
    expect((asked as CallResult).isError).toBeFalsy();
    expect(first.seen.messages[0]).toContain('"Allow always" adds, until the gateway stops');
    const notAsked = await second.client.callTool({ name: 'notes__write_note', arguments: { text: 'b' } });
    expect((notAsked as CallResult).isError).toBeFalsy();
    expect(first.seen.messages).toHaveLength(1);
    expect(second.seen.messages).toHaveLength(0);
  });
});
