// Gemini CLI's includeTools/excludeTools mean in a file loaded here what they mean in Gemini CLI
// (packages/core/src/tools/mcp-client.ts, isEnabled): an excludeTools entry hides the tool of
// exactly that name; an includeTools entry keeps the tool of exactly that name, and the tool
// `name` for an entry `name(...)`. They are names, not globs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProviders, loadMcpConfig } from '../src/index.js';
import { hostileServer, tempDirectory } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

/** Loads a Gemini CLI settings file with these servers and lists each one's remote tool names. */
async function listed(servers: Record<string, Record<string, unknown>>): Promise<Record<string, string[]>> {
  const server = hostileServer(['--glob-names']);
  const file = join(run.path, `settings-${Object.keys(servers).join('-')}.json`);
  const entries = Object.fromEntries(
    Object.entries(servers).map(([name, extra]) => [
      name,
      { command: server.command, args: server.args, ...extra },
    ]),
  );
  writeFileSync(file, JSON.stringify({ mcpServers: entries }));
  const loaded = await loadMcpConfig(file, { env: {} });
  expect(loaded.problems).toEqual([]);
  const providers = createMcpProviders(loaded, { runDirectory: run.path });
  try {
    const out: Record<string, string[]> = {};
    for (const provider of providers) {
      await provider.start?.(AbortSignal.timeout(30_000));
      out[provider.namespace] = (await provider.listTools())
        .map((spec) => String(spec.meta?.remoteName))
        .sort();
    }
    return out;
  } finally {
    await Promise.all(providers.map((provider) => provider.close?.()));
  }
}

describe("Gemini CLI's includeTools and excludeTools", () => {
  it('match names exactly: a name with glob characters keeps or hides only itself', async () => {
    const result = await listed({
      include: { includeTools: ['read*', '[ab]', '{x,y}', '!bang', 'a\\b'] },
      exclude: { excludeTools: ['read*', 'read?', '[ab]', '{x,y}', '!bang', 'a\\b', 'storm'] },
    });
    expect(result.include).toEqual(['!bang', '[ab]', 'a\\b', 'read*', '{x,y}']);
    expect(result.exclude).toEqual(['a', 'bang', 'echo', 'lists', 'read_file', 'readme', 'x']);
  });

  it('an includeTools entry "name(args)" keeps the tool "name"; excludeTools wins; in excludeTools it is only itself', async () => {
    const result = await listed({
      args: {
        includeTools: ['echo(message: string)', 'read*(path)', 'lists()', '(storm)'],
        excludeTools: ['lists'],
      },
      excludeArgs: { excludeTools: ['echo(message)', 'read_file'] },
    });
    // "(storm)" names no tool "storm" (the name before "(" is empty), as in Gemini CLI
    expect(result.args).toEqual(['echo', 'read*']);
    // Gemini CLI compares an excludeTools entry with the name alone: "echo(message)" hides nothing
    expect(result.excludeArgs).toContain('echo');
    expect(result.excludeArgs).not.toContain('read_file');
  });

  it('an includeTools of empty names only keeps no tool, as an empty one does (a name is never empty)', async () => {
    const result = await listed({ emptyNames: { includeTools: [''] }, emptyDeny: { excludeTools: [''] } });
    expect(result.emptyNames).toEqual([]);
    expect(result.emptyDeny).toContain('echo');
  });

  it('an includeTools entry with more than 16 "(" is a problem of that server (each "(" may end a kept name)', async () => {
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          parens: { command: 'node', includeTools: ['echo', `x${'('.repeat(5_000)}`] },
          fine: { command: 'node', includeTools: [`echo${'('.repeat(16)}`] },
        },
      },
      { env: {} },
    );
    expect(Object.keys(loaded.servers)).toEqual(['fine']);
    expect(loaded.problems).toMatchObject([{ server: 'parens', field: 'includeTools' }]);
    expect(loaded.problems[0]?.message).toMatch(/more than 16 "\(".*write the tool name/);
  });

  it("Gemini CLI's empty includeTools keeps its meaning there: no tool of that server is exposed", async () => {
    const config = hostileServer();
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          none: { command: config.command, args: config.args, includeTools: [] },
          noneBut: { command: config.command, args: config.args, includeTools: [], excludeTools: ['echo'] },
          some: { command: config.command, args: config.args, includeTools: ['echo'] },
        },
      },
      { env: {} },
    );
    expect(loaded.problems).toEqual([]);
    const providers = createMcpProviders(loaded, { runDirectory: run.path });
    try {
      const listed: Record<string, string[]> = {};
      for (const provider of providers) {
        await provider.start?.(AbortSignal.timeout(30_000));
        listed[provider.namespace] = (await provider.listTools()).map((spec) => spec.name);
      }
      expect(listed).toEqual({ none: [], noneBut: [], some: ['echo'] });
    } finally {
      for (const provider of providers) await provider.close?.();
    }
  });
});
