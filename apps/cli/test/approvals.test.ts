import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BIN,
  baseEnv,
  exited,
  fixturePids,
  fixtureServer,
  isAlive,
  tempDir,
  waitFor,
  writeJsonFile,
  GATEWAY_TRANSPORT_OPTIONS,
  scriptAvailable,
} from './helpers.js';

// `script` (util-linux) gives the gateway a real terminal, so it asks approval questions there.
const hasScript = scriptAvailable();

let dir: { path: string; cleanup(): Promise<void> };
let pidDir: string;
beforeEach(async () => {
  dir = await tempDir();
  pidDir = join(dir.path, 'pids');
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    mcpServers: { notes: fixtureServer({ FIXTURE_PID_DIR: pidDir }) },
    builtin: { workspace: '.', tools: ['read', 'write'] },
  });
});
afterEach(async () => {
  for (const pid of await fixturePids(pidDir)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await dir.cleanup();
});

/** Runs a shell command under `script`, so it has a real terminal; returns what it printed so far. */
function onTerminal(command: string): {
  child: ChildProcessWithoutNullStreams;
  screen: () => string;
  prompts: () => number;
} {
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: dir.path,
    env: baseEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const screen = (): string => output;
  const prompts = (): number => output.split('Allow [o]nce, [a]lways, or [d]eny?').length - 1;
  return { child, screen, prompts };
}

describe.skipIf(!hasScript)('approvals on a terminal while serving', () => {
  it('asks allow once / always / deny with the timeout shown, and acts on the answer', async () => {
    const { child, screen, prompts } = onTerminal(
      `'${process.execPath}' '${BIN}' serve mcp --http 127.0.0.1:0`,
    );
    try {
      expect(await waitFor(() => /http:\/\/127\.0\.0\.1:\d+\/mcp/.test(screen()), 30_000)).toBe(true);
      expect(screen()).toContain('approvals asked on this terminal');
      const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(screen())?.[0] as string;
      const client = new Client({ name: 'approval-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), GATEWAY_TRANSPORT_OPTIONS));

      const approved = client.callTool({
        name: 'write',
        arguments: { path: 'approved.txt', content: 'yes' },
      });
      expect(await waitFor(() => prompts() === 1, 20_000)).toBe(true);
      expect(screen()).toContain('Approval needed: write (risk medium)');
      expect(screen()).toMatch(/no answer in \d+ s denies/);
      child.stdin.write('o\n');
      const first = (await approved) as { isError?: boolean };
      expect(first.isError).toBeFalsy();
      expect(await readFile(join(dir.path, 'approved.txt'), 'utf8')).toBe('yes');

      const refused = client.callTool({ name: 'notes__write_note', arguments: { text: 'no' } });
      expect(await waitFor(() => prompts() === 2, 20_000)).toBe(true);
      child.stdin.write('d\n');
      const second = (await refused) as { isError?: boolean; content: { text?: string }[] };
      expect(second.isError).toBe(true);
      expect(second.content.map((block) => block.text).join('')).toContain('DENIED');

      const always = client.callTool({ name: 'notes__write_note', arguments: { text: 'keep' } });
      expect(await waitFor(() => prompts() === 3, 20_000)).toBe(true);
      child.stdin.write('a\n');
      expect(((await always) as { isError?: boolean }).isError).toBeFalsy();
      // "always" is remembered: the same tool runs without another question
      const again = (await client.callTool({ name: 'notes__write_note', arguments: { text: 'again' } })) as {
        isError?: boolean;
      };
      expect(again.isError).toBeFalsy();
      expect(prompts()).toBe(3);
      await client.close();
    } finally {
      child.kill('SIGTERM');
      await exited(child, 20_000);
    }
  });

  it('over --stdio, asks on the controlling terminal while the protocol stays on the pipes', async () => {
    const client = fileURLToPath(new URL('./fixtures/stdio-approval-client.mjs', import.meta.url));
    const { child, screen, prompts } = onTerminal(`'${process.execPath}' '${client}' '${BIN}' '${dir.path}'`);
    try {
      expect(await waitFor(() => screen().includes('CLIENT-READY'), 30_000)).toBe(true);
      expect(await waitFor(() => prompts() === 1, 20_000)).toBe(true);
      expect(screen()).toContain('Approval needed: write (risk medium)');
      child.stdin.write('o\n');
      expect(await waitFor(() => screen().includes('FIRST-RESULT'), 20_000)).toBe(true);
      expect(screen()).toContain('FIRST-RESULT error=false');
      expect(await readFile(join(dir.path, 'approved.txt'), 'utf8')).toBe('FIRST');
      expect(await waitFor(() => prompts() === 2, 20_000)).toBe(true);
      child.stdin.write('d\n');
      expect(await waitFor(() => screen().includes('CLIENT-DONE'), 20_000)).toBe(true);
      expect(screen()).toMatch(/SECOND-RESULT error=true .*DENIED/);
      await expect(readFile(join(dir.path, 'refused.txt'), 'utf8')).rejects.toThrow();
    } finally {
      child.kill('SIGTERM');
      await exited(child, 20_000);
    }
  });
});
