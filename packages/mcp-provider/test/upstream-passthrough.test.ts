// McpProvider.upstream, as a gateway uses it: the server's resources, prompts, completion and
// logging through the running session, its notifications heard, and only the methods a gateway
// may pass on sent.
import { createToolContext } from '@toolplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type McpProvider, type PassthroughNotification, createMcpProvider } from '../src/index.js';
import { fixture } from './helpers/index.js';

let provider: McpProvider | undefined;
afterEach(async () => {
  await provider?.close?.();
  provider = undefined;
});

function start(): McpProvider {
  provider = createMcpProvider('pass', {
    type: 'stdio',
    command: process.execPath,
    args: [fixture('passthrough-server.mjs')],
    healthIntervalMs: 0,
  });
  return provider;
}

/** Waits (bounded) until `heard` holds a notification that `match` accepts. */
async function heardOne(
  heard: PassthroughNotification[],
  match: (notification: PassthroughNotification) => boolean,
): Promise<PassthroughNotification | undefined> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const found = heard.find(match);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return undefined;
}

describe('McpProvider.upstream', () => {
  it('passes resources, templates, prompts and completion to the server and returns its answers', async () => {
    const upstream = start().upstream;
    if (!upstream) throw new Error('a stdio provider has an upstream');
    expect(upstream.server).toBe('pass');
    // the first request starts the session
    const listed = (await upstream.request('resources/list', {})) as { resources: { uri: string }[] };
    expect(listed.resources.map((resource) => resource.uri)).toEqual(['test://note']);
    expect(upstream.capabilities()).toMatchObject({ resources: { subscribe: true }, logging: {} });
    expect(await upstream.request('resources/read', { uri: 'test://note' })).toEqual({
      contents: [{ uri: 'test://note', mimeType: 'text/plain', text: 'the note' }],
    });
    const templates = (await upstream.request('resources/templates/list', {})) as {
      resourceTemplates: { uriTemplate: string }[];
    };
    expect(templates.resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'test://pages/{name}',
    ]);
    const completion = (await upstream.request('completion/complete', {
      ref: { type: 'ref/resource', uri: 'test://pages/{name}' },
      argument: { name: 'name', value: 'b' },
    })) as { completion: { values: string[] } };
    expect(completion.completion.values).toEqual(['beta']);
    const prompt = (await upstream.request('prompts/get', { name: 'greet', arguments: { who: 'Ada' } })) as {
      messages: { content: { text: string } }[];
    };
    expect(prompt.messages[0]?.content.text).toBe('Hello Ada');
  });

  it('refuses a method a gateway may not pass through, before sending it, and serves on', async () => {
    const upstream = start().upstream;
    if (!upstream) throw new Error('a stdio provider has an upstream');
    await expect(upstream.request('tools/call', { name: 'touch', arguments: {} })).rejects.toThrow(
      'tools/call is not a method a gateway passes through',
    );
    await expect(upstream.request('sampling/createMessage', {})).rejects.toThrow(
      'not a method a gateway passes through',
    );
    expect(((await upstream.request('prompts/list', {})) as { prompts: unknown[] }).prompts).toHaveLength(1);
  });

  it('hears log messages after setLevel and resource updates after subscribe, and drops a stray progress token', async () => {
    const current = start();
    await current.start?.(AbortSignal.timeout(30_000));
    const upstream = current.upstream;
    if (!upstream) throw new Error('a stdio provider has an upstream');
    const heard: PassthroughNotification[] = [];
    const stop = upstream.onNotification((notification) => heard.push(notification));
    await upstream.request('logging/setLevel', { level: 'debug' });
    await upstream.request('resources/subscribe', { uri: 'test://note' });
    const result = await current.execute('touch', {}, createToolContext());
    expect(result.ok ? 'ok' : JSON.stringify(result.error)).toBe('ok');
    const update = await heardOne(heard, (entry) => entry.method === 'notifications/resources/updated');
    expect(update?.params).toEqual({ uri: 'test://note' });
    const log = await heardOne(heard, (entry) => entry.method === 'notifications/message');
    expect(log?.params).toMatchObject({ level: 'info', data: 'touched' });
    // progress for a token no request of ours holds is not handed on as if it were ours
    expect(heard.filter((entry) => entry.method === 'notifications/progress')).toEqual([]);
    stop();
    const before = heard.length;
    await current.execute('touch', {}, createToolContext());
    await upstream.request('prompts/list', {});
    expect(heard.length).toBe(before);
  });
});
