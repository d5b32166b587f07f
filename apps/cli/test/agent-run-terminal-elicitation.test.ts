// `agent run` on a real terminal (util-linux `script`): a tool the model calls elicits, and the
// form is asked at the terminal, its answer going back to the server and so to the model.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { type ScriptedModel, type ScriptedReply, startScriptedModel } from '@toolplane/subagents/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BIN,
  baseEnv,
  exited,
  tempDir,
  waitFor,
  writeJsonFile,
  featuresServer,
  scriptAvailable,
} from './helpers.js';

const hasScript = scriptAvailable();

let dir: { path: string; cleanup(): Promise<void> };
let model: ScriptedModel | undefined;
let child: ChildProcessWithoutNullStreams | undefined;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await model?.close();
  model = undefined;
  await dir.cleanup();
});

const call = (name: string, args: unknown): ScriptedReply => ({ toolCalls: [{ name, arguments: args }] });

describe.skipIf(!hasScript)('agent run asks elicitations at the terminal', () => {
  it('asks the form of a tool the model calls and the server gets the answer', async () => {
    model = await startScriptedModel({
      replies: {
        'main-model': [
          call('feat__ask', {}),
          call('agent__final_report', { status: 'success', format: 'text', content: 'asked' }),
        ],
      },
    });
    await writeJsonFile(dir.path, 'toolplane.config.json', {
      mcpServers: { feat: featuresServer() },
      policy: { autoAllow: ['feat__*'] },
      model: { name: 'main-model', maxRetries: 0 },
    });
    child = spawn(
      'script',
      ['-qfec', `'${process.execPath}' '${BIN}' agent run 'Ask who I am'`, '/dev/null'],
      {
        cwd: dir.path,
        env: baseEnv({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: '' }),
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let screen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString().replace(/\r/g, '');
    });
    expect(await waitFor(() => screen.includes('answer? (y'), 30_000), screen).toBe(true);
    expect(screen).toContain('MCP server feat asks: Who are you?');
    child.stdin.write('y\nAda\n\n');
    expect(await exited(child, 30_000), screen).toBe(0);
    expect(screen).toContain('{"action":"accept","content":{"name":"Ada","size":3}}');
  });
});
