// `serve mcp` over stdio at a terminal: stdin/stdout are the MCP transport, the terminal is
// /dev/tty (a real pseudo-terminal from util-linux `script`). A client that did not declare
// elicitation has the upstream server's questions asked at that terminal, one at a time.
import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, tempDir, waitFor, writeJsonFile, featuresConfig, scriptAvailable } from './helpers.js';

const hasScript = scriptAvailable();

let dir: { path: string; cleanup(): Promise<void> };
let child: ChildProcess | undefined;
let client: Client | undefined;
beforeAll(async () => {
  dir = await tempDir();
  await writeJsonFile(dir.path, 'toolplane.config.json', featuresConfig());
});
afterEach(async () => {
  await client?.close().catch(() => {});
  client = undefined;
  if (child && child.exitCode === null) child.kill('SIGKILL');
});
afterAll(() => dir.cleanup());

/** The gateway on a pty, its MCP stdio on fds 3 (in) and 4 (out); an SDK client without elicitation. */
async function gatewayOnTerminal(): Promise<{ screen(): string; type(text: string): void }> {
  child = spawn(
    'script',
    ['-qfec', `'${process.execPath}' '${BIN}' serve mcp --stdio <&3 >&4`, '/dev/null'],
    {
      cwd: dir.path,
      env: baseEnv(),
      stdio: ['pipe', 'pipe', 'pipe', 'pipe', 'pipe'],
    },
  );
  let screen = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    screen += chunk.toString().replace(/\r/g, '');
  });
  // the framing of stdio is the same both ways: the server transport class reads and writes it
  const transport = new StdioServerTransport(child.stdio[4] as Readable, child.stdio[3] as Writable);
  client = new Client({ name: 'no-elicitation', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return { screen: () => screen, type: (text) => child?.stdin?.write(text) };
}

const textOf = (result: unknown): string =>
  ((result as { content: { text: string }[] }).content[0] as { text: string }).text;

describe.skipIf(!hasScript)('serve mcp over stdio asks elicitations at its terminal', () => {
  it("asks the upstream server's form at /dev/tty and sends the answer", async () => {
    const terminal = await gatewayOnTerminal();
    const call = client?.callTool({ name: 'feat__ask', arguments: {} });
    expect(await waitFor(() => terminal.screen().includes('answer? (y'), 30_000), terminal.screen()).toBe(
      true,
    );
    expect(terminal.screen()).toContain('MCP server feat asks: Who are you?');
    terminal.type('y\nAda\n\n');
    expect(textOf(await call)).toBe('{"action":"accept","content":{"name":"Ada","size":3}}');
  });

  it('asks two forms arriving at once one after the other, never interleaved', async () => {
    const terminal = await gatewayOnTerminal();
    const calls = [1, 2].map(() => client?.callTool({ name: 'feat__ask', arguments: {} }));
    expect(await waitFor(() => terminal.screen().includes('answer? (y'), 30_000)).toBe(true);
    // the second form is not asked while the first waits
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(terminal.screen().split('asks: Who are you?').length - 1).toBe(1);
    terminal.type('y\nAda\n4\n');
    expect(await waitFor(() => terminal.screen().split('asks: Who are you?').length - 1 === 2, 30_000)).toBe(
      true,
    );
    terminal.type('y\nBob\n\n');
    const answers = (await Promise.all(calls)).map(textOf).sort();
    expect(answers).toEqual([
      '{"action":"accept","content":{"name":"Ada","size":4}}',
      '{"action":"accept","content":{"name":"Bob","size":3}}',
    ]);
  });

  it('declines the form asked and those queued when the terminal ends (Ctrl-D)', async () => {
    const terminal = await gatewayOnTerminal();
    const calls = [1, 2, 3].map(() => client?.callTool({ name: 'feat__ask', arguments: {} }));
    expect(await waitFor(() => terminal.screen().includes('answer? (y'), 30_000)).toBe(true);
    terminal.type('\x04');
    const answers = (await Promise.all(calls)).map(textOf);
    for (const answer of answers) expect(answer).toContain('the terminal closed (end of input)');
  });

  it('answers or declines 50 queued forms', async () => {
    const terminal = await gatewayOnTerminal();
    const calls = Array.from({ length: 50 }, () => client?.callTool({ name: 'feat__ask', arguments: {} }));
    for (let index = 0; index < 10; index++) {
      expect(
        await waitFor(() => terminal.screen().split('answer? (y').length - 1 === index + 1, 30_000),
      ).toBe(true);
      terminal.type('n\n');
    }
    expect(await waitFor(() => terminal.screen().split('answer? (y').length - 1 === 11, 30_000)).toBe(true);
    terminal.type('\x04');
    const answers = (await Promise.all(calls)).map(textOf);
    expect(answers.filter((answer) => answer === '{"action":"decline"}')).toHaveLength(10);
    expect(answers.filter((answer) => answer.includes('the terminal closed'))).toHaveLength(40);
  }, 90_000);
});

describe.skipIf(!hasScript)('serve mcp over stdio: approvals and elicitations share the terminal', () => {
  it('asks an approval and a form arriving at once one after the other', async () => {
    await writeJsonFile(dir.path, 'toolplane.config.json', featuresConfig(['feat__ask']));
    try {
      const terminal = await gatewayOnTerminal();
      const approval = client?.callTool({ name: 'feat__log', arguments: {} });
      const form = client?.callTool({ name: 'feat__ask', arguments: {} });
      const asked = (): number =>
        terminal.screen().split('Allow [o]nce').length - 1 + terminal.screen().split('answer? (y').length - 1;
      expect(await waitFor(() => asked() === 1, 30_000), terminal.screen()).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(asked()).toBe(1);
      const approvalFirst = terminal.screen().includes('Allow [o]nce');
      terminal.type(approvalFirst ? 'o\n' : 'y\nAda\n\n');
      expect(await waitFor(() => asked() === 2, 30_000), terminal.screen()).toBe(true);
      terminal.type(approvalFirst ? 'y\nAda\n\n' : 'o\n');
      expect(textOf(await approval)).toBe('logged');
      expect(textOf(await form)).toBe('{"action":"accept","content":{"name":"Ada","size":3}}');
    } finally {
      await writeJsonFile(dir.path, 'toolplane.config.json', featuresConfig());
    }
  });
});
