// A server's elicitation during `tools call` at a terminal: asked field by field on a real
// pseudo-terminal (util-linux `script`), each answer checked before it is sent.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, finished, tempDir, writeJsonFile, FEATURES_SERVER } from './helpers.js';

let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    mcpServers: {
      feat: { command: process.execPath, args: [FEATURES_SERVER], env: { FIXTURE_SECRET: 'x' } },
    },
    policy: { autoAllow: ['feat__*'] },
  });
});
afterAll(() => dir.cleanup());

/** `toolplane tools call feat__ask` on a pseudo-terminal, typing `lines`; what the terminal showed. */
async function callOnTerminal(lines: readonly string[], args = '{}'): Promise<string> {
  const command = [process.execPath, BIN, 'tools', 'call', 'feat__ask', '--args', args]
    .map((part) => `'${part.replace(/'/g, "'\\''")}'`)
    .join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: dir.path,
    env: baseEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.write(lines.map((line) => `${line}\n`).join(''));
  const outcome = finished(child, 60_000);
  // the terminal stays open until the call ends: end the input only then
  const result = await outcome;
  child.stdin.end();
  return result.stdout.replace(/\r/g, '');
}

describe('tools call at a terminal, when the server elicits', () => {
  it('asks each field, applies the default of one left empty, and sends the answer', async () => {
    const shown = await callOnTerminal(['y', 'Ada', '']);
    expect(shown).toContain('feat asks: Who are you?');
    expect(shown).toContain('(string) > ');
    expect(shown).toContain('(integer; Enter for 3) > ');
    expect(shown).toContain('{"action":"accept","content":{"name":"Ada","size":3}}');
  });

  it('asks again for a value of the wrong type, then takes a good one', async () => {
    const shown = await callOnTerminal(['y', 'Ada', 'three', '4']);
    expect(shown).toContain('type a number');
    expect(shown).toContain('{"action":"accept","content":{"name":"Ada","size":4}}');
  });

  it('declines when told no, and cancels a required field left empty three times', async () => {
    expect(await callOnTerminal(['n'])).toContain('{"action":"decline"}');
    const cancelled = await callOnTerminal(['y', '', '', '']);
    expect(cancelled).toContain('this field is required');
    expect(cancelled).toContain('the form is cancelled');
    expect(cancelled).toContain('{"action":"cancel"}');
  });
});
