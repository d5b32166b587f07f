import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BIN,
  baseEnv,
  fakeToken,
  gatewayUrl,
  startCli,
  tempDir,
  waitFor,
  writeJsonFile,
  GATEWAY_TRANSPORT_OPTIONS,
  FEATURES_SERVER,
} from './helpers.js';

let dir: { path: string; cleanup(): Promise<void> };
let secret: string;
const started: ChildProcess[] = [];
const clients: Client[] = [];

beforeEach(async () => {
  dir = await tempDir();
  secret = fakeToken('ghp_');
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    mcpServers: {
      feat: { command: process.execPath, args: [FEATURES_SERVER], env: { FIXTURE_SECRET: secret } },
    },
    policy: { autoAllow: ['feat__*'] },
  });
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await dir.cleanup();
});

type Capabilities = ConstructorParameters<typeof Client>[1];

async function connect(
  kind: 'stdio' | 'http',
  capabilities: Capabilities = {},
  extraArgs: string[] = [],
): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' }, capabilities);
  clients.push(client);
  if (kind === 'stdio') {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'serve', 'mcp', '--stdio', ...extraArgs],
        cwd: dir.path,
        env: baseEnv() as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    return client;
  }
  const child = startCli(['serve', 'mcp', '--http', '127.0.0.1:0', ...extraArgs], { cwd: dir.path });
  started.push(child);
  const url = await gatewayUrl(child);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), GATEWAY_TRANSPORT_OPTIONS));
  return client;
}

describe.each(['stdio', 'http'] as const)('serve mcp --%s passes an upstream server through', (kind) => {
  it('lists and reads resources and templates, scrubbing what is read', async () => {
    const client = await connect(kind);
    expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain('test://note');
    const read = await client.readResource({ uri: 'test://note' });
    const text = (read.contents[0] as { text: string }).text;
    expect(text).toContain('note with token');
    expect(text).not.toContain(secret);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['test://items/{id}']);
    const item = await client.readResource({ uri: 'test://items/beta' });
    expect((item.contents[0] as { text: string }).text).toBe('item beta');
  });

  it('lists and gets prompts named server__name, scrubbed, and completes template arguments', async () => {
    const client = await connect(kind);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['feat__greet']);
    const prompt = await client.getPrompt({ name: 'feat__greet', arguments: { name: 'Ada' } });
    const text = (prompt.messages[0]?.content as { text?: string } | undefined)?.text ?? '';
    expect(text).toContain('Hello Ada');
    expect(text).not.toContain(secret);
    const completion = await client.complete({
      ref: { type: 'ref/resource', uri: 'test://items/{id}' },
      argument: { name: 'id', value: 'g' },
    });
    expect(completion.completion.values).toEqual(['gamma']);
  });

  it('keeps image, audio and embedded-resource content of tool results', async () => {
    const client = await connect(kind);
    const result = await client.callTool({ name: 'feat__media', arguments: {} });
    const types = (result.content as { type: string }[]).map((block) => block.type);
    expect(types).toEqual(['image', 'audio', 'resource']);
  });

  it('forwards log messages after setLevel, and resource updates only for subscribed URIs', async () => {
    const client = await connect(kind);
    const logs: unknown[] = [];
    const updates: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params);
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updates.push(notification.params.uri);
    });
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'feat__log', arguments: {} });
    await waitFor(() => logs.length > 0, 10_000);
    expect(logs[0]).toMatchObject({ level: 'info', logger: 'feat' });
    expect(JSON.stringify(logs[0])).not.toContain(secret);
    await client.listResources();
    await client.subscribeResource({ uri: 'test://note' });
    await client.callTool({ name: 'feat__touch', arguments: {} });
    await waitFor(() => updates.length > 0, 10_000);
    // a marker call: notifications sent before its result have arrived once it returns
    await client.callTool({ name: 'feat__media', arguments: {} });
    expect(updates).toEqual(['test://note']);
  });

  it('passes tool progress on to the client', async () => {
    const client = await connect(kind);
    // read off the transport, in arrival order: the SDK 1.x client runs notification handlers a
    // microtask late, so progress that arrives in one read with the result never reaches
    // `onprogress` (typescript-sdk#2580); what is tested here is what the gateway sends
    const transport = client.transport as Transport;
    const received = transport.onmessage;
    const order: string[] = [];
    transport.onmessage = (message, extra) => {
      const fields = message as { method?: string; params?: { progress?: number }; result?: unknown };
      if (fields.method === 'notifications/progress') order.push(`progress ${fields.params?.progress}`);
      else if (fields.result !== undefined) order.push('result');
      received?.(message, extra);
    };
    await client.callTool({ name: 'feat__progress', arguments: {} }, undefined, { onprogress: () => {} });
    expect(order).toEqual(['progress 1', 'progress 2', 'result']);
  });

  it('sends elicitation and sampling to a client that declared them, and offers the workspace as roots', async () => {
    const client = await connect(kind, { capabilities: { elicitation: { form: {} }, sampling: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      model: 'client-model',
      role: 'assistant',
      content: { type: 'text', text: 'hi from the client' },
    }));
    const elicited = await client.callTool({ name: 'feat__ask', arguments: {} });
    expect(asked).toEqual(['Who are you?']);
    expect((elicited.content as { text: string }[])[0]?.text).toContain('"action":"accept"');
    expect((elicited.content as { text: string }[])[0]?.text).toContain('"size":3');
    const sampled = await client.callTool({ name: 'feat__sample', arguments: {} });
    expect((sampled.content as { text: string }[])[0]?.text).toContain('hi from the client');
    const roots = await client.callTool({ name: 'feat__roots', arguments: {} });
    expect((roots.content as { text: string }[])[0]?.text).toContain('file://');
  });

  it('refuses elicitation and sampling for a client without them, saying why, and serves on', async () => {
    const client = await connect(kind);
    const elicited = await client.callTool({ name: 'feat__ask', arguments: {} });
    expect((elicited.content as { text: string }[]).map((block) => block.text).join('')).toMatch(
      /did not declare elicitation/,
    );
    const sampled = await client.callTool({ name: 'feat__sample', arguments: {} });
    expect((sampled.content as { text: string }[]).map((block) => block.text).join('')).toMatch(
      /did not declare sampling|no model endpoint/,
    );
    const media = await client.callTool({ name: 'feat__media', arguments: {} });
    expect(media.isError).toBeFalsy();
  });
});

describe('serve mcp --no-prefix', () => {
  it("keeps the one upstream server's own tool and prompt names", async () => {
    const client = await connect('stdio', {}, ['--no-prefix']);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('media');
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['greet']);
    const result = await client.callTool({ name: 'media', arguments: {} });
    expect(result.isError).toBeFalsy();
  });
});
