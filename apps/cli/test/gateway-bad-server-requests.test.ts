import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, baseEnv, tempDir, writeJsonFile, featuresConfig } from './helpers.js';

let dir: { path: string; cleanup(): Promise<void> };
let client: Client | undefined;
beforeEach(async () => {
  dir = await tempDir();
  await writeJsonFile(dir.path, 'toolplane.config.json', featuresConfig());
});
afterEach(async () => {
  await client?.close().catch(() => {});
  client = undefined;
  await dir.cleanup();
});

async function connect(): Promise<{ client: Client; asked: { elicit: number; sample: number } }> {
  const asked = { elicit: 0, sample: 0 };
  client = new Client(
    { name: 'test', version: '1' },
    { capabilities: { elicitation: { form: {} }, sampling: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => {
    asked.elicit++;
    return { action: 'decline' };
  });
  client.setRequestHandler(CreateMessageRequestSchema, async () => {
    asked.sample++;
    return { model: 'm', role: 'assistant', content: { type: 'text', text: 'ok' } };
  });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', 'mcp', '--stdio'],
      cwd: dir.path,
      env: baseEnv() as Record<string, string>,
      stderr: 'pipe',
    }),
  );
  return { client, asked };
}

const text = (result: Record<string, unknown>): string =>
  (result.content as { text?: string }[]).map((block) => block.text ?? '').join('\n');

describe('an upstream server asking the gateway for what it does not allow', () => {
  it('refuses an elicitation with a nested object before the client is asked, and serves on', async () => {
    const { client, asked } = await connect();
    const refused = await client.callTool({ name: 'feat__ask', arguments: { nested: true } });
    expect(text(refused)).toMatch(/elicitation failed: .*(nested|object)/i);
    expect(asked.elicit).toBe(0);
    const again = await client.callTool({ name: 'feat__ask', arguments: {} });
    expect(text(again)).toContain('"action":"decline"');
    expect(asked.elicit).toBe(1);
  });

  it('refuses a sampling request over 1 MiB without asking the client, and serves on', async () => {
    const { client, asked } = await connect();
    const refused = await client.callTool({ name: 'feat__sample', arguments: { bytes: 2 * 1024 * 1024 } });
    expect(text(refused)).toMatch(/sampling failed: .*(bytes|large|MiB)/i);
    expect(asked.sample).toBe(0);
    const small = await client.callTool({ name: 'feat__sample', arguments: {} });
    expect(text(small)).toContain('sampled');
  });

  it('answers roots asked for 10,000 times in one call and serves on', async () => {
    const { client } = await connect();
    const many = await client.callTool({ name: 'feat__roots', arguments: { times: 10_000 } }, undefined, {
      timeout: 120_000,
    });
    expect(text(many)).toContain('file://');
    const media = await client.callTool({ name: 'feat__media', arguments: {} });
    expect(media.isError).toBeFalsy();
  });
});
