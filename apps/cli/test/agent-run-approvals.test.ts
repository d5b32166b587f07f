import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ScriptedModel, type ScriptedReply, startScriptedModel } from '@toolplane/subagents/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, baseEnv, exited, tempDir, waitFor, scriptAvailable } from './helpers.js';

// `agent run` on a real terminal (`script` from util-linux): the spawn of a subagent and the
// subagent's own risky call are asked there, the subagent's question naming it.
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
const report = (content: string): ScriptedReply =>
  call('agent__final_report', { status: 'success', format: 'text', content });
const PROMPT = 'Allow [o]nce, [a]lways, or [d]eny?';

describe.skipIf(!hasScript)('agent run approvals on a terminal', () => {
  it('asks before spawning a subagent and names the subagent in its own question', async () => {
    const marker = join(dir.path, 'written-by-child.txt');
    model = await startScriptedModel({
      replies: {
        'main-model': [call('agent__writer', { task: 'Write the file' }), report('The writer wrote it.')],
        'writer-model': [call('bash', { command: `echo done > ${marker}` }), report('wrote it')],
      },
    });
    await writeFile(
      join(dir.path, 'toolplane.config.yaml'),
      `builtin: { workspace: ., tools: [bash] }
model: { name: main-model, maxRetries: 0 }
agents:
  writer: { description: Writes files., systemPrompt: You write., model: writer-model, tools: { allow: [bash] } }
`,
    );
    child = spawn(
      'script',
      ['-qfec', `'${process.execPath}' '${BIN}' agent run 'Have the writer write'`, '/dev/null'],
      {
        cwd: dir.path,
        env: baseEnv({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: '' }),
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let screen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
    });
    const prompts = (): number => screen.split(PROMPT).length - 1;
    expect(await waitFor(() => prompts() === 1, 30_000), screen).toBe(true);
    expect(screen).toContain('Approval needed: agent__writer');
    child.stdin.write('o\n');
    expect(await waitFor(() => prompts() === 2, 30_000), screen).toBe(true);
    expect(screen).toContain('bash');
    expect(screen).toMatch(/subagent "writer" \(sub_\S+, depth 1/);
    child.stdin.write('o\n');
    expect(await exited(child, 30_000)).toBe(0);
    expect(existsSync(marker)).toBe(true);
    expect(screen).toContain('The writer wrote it.');
  });
});
