import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ScriptedModel, type ScriptedReply, startScriptedModel } from '@toolplane/subagents/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

// A model's shell commands through `agent run` (no terminal, so nothing can be approved), in
// the policy's bypass mode: protected paths and scripts the line writes still hold.

let dir: { path: string; cleanup(): Promise<void> };
let model: ScriptedModel | undefined;
beforeEach(async () => {
  dir = await tempDir();
  await mkdir(join(dir.path, '.git', 'hooks'), { recursive: true });
  await mkdir(join(dir.path, 'secrets'), { recursive: true });
  await writeFile(join(dir.path, 'keep.txt'), 'kept');
});
afterEach(async () => {
  await model?.close();
  model = undefined;
  await dir.cleanup();
});

const call = (name: string, args: unknown): ScriptedReply => ({ toolCalls: [{ name, arguments: args }] });
const done: ScriptedReply = call('agent__final_report', {
  status: 'success',
  format: 'text',
  content: 'done',
});

/** Runs one bash command as the model's call; returns what the tool answered the model. */
async function modelRuns(command: string, policy: string): Promise<string> {
  await writeFile(
    join(dir.path, 'toolplane.config.yaml'),
    `builtin: { workspace: ., tools: [bash] }\nmodel: { name: main-model, maxRetries: 0 }\npolicy: ${policy}\n`,
  );
  model = await startScriptedModel({ replies: { 'main-model': [call('bash', { command }), done] } });
  const run = await runCli(['agent', 'run', 'Run it'], {
    cwd: dir.path,
    env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: '' },
  });
  expect(run.code, run.stderr).toBe(0);
  const answer = model.requests[1]?.messages.find((message) => message.role === 'tool');
  await model.close();
  model = undefined;
  return String(answer?.content ?? '');
}

describe('protected paths and self-written scripts through the CLI, in bypass mode', () => {
  it('does not let a model write a git hook with a shell command', async () => {
    const answer = await modelRuns('echo ok > .git/hooks/pre-commit', '{ mode: bypass }');
    expect(answer).toContain('protected-path-write');
    expect(existsSync(join(dir.path, '.git', 'hooks', 'pre-commit'))).toBe(false);
    await modelRuns('echo ok > notes.txt', '{ mode: bypass }');
    expect(existsSync(join(dir.path, 'notes.txt'))).toBe(true);
  });

  it('takes the list from policy.commands.protectedPaths in the config', async () => {
    const policy = "{ mode: bypass, commands: { protectedPaths: ['secrets/**'] } }";
    const answer = await modelRuns('echo x > secrets/a.txt', policy);
    expect(answer).toContain('protected-path-write');
    expect(existsSync(join(dir.path, 'secrets', 'a.txt'))).toBe(false);
    await modelRuns('echo ok > .git/hooks/pre-commit', policy);
    expect(existsSync(join(dir.path, '.git', 'hooks', 'pre-commit'))).toBe(true);
  });

  it('refuses a script the line writes and runs when its text holds a denied command', async () => {
    const answer = await modelRuns("echo 'rm -rf keep.txt' > s.sh && sh s.sh", '{ mode: bypass }');
    expect(answer).toContain('DENIED');
    expect(existsSync(join(dir.path, 'keep.txt'))).toBe(true);
  });
});
