import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type RecordedRequest,
  type ScriptedModel,
  type ScriptedReply,
  startScriptedModel,
} from '@toolplane/subagents/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exited, isAlive, startCli, tempDir, waitFor } from './helpers.js';

// Ctrl-C during `agent run` cancels the run and everything it started: the subagent's shell
// command, the root's background shell task, the model request in flight. Exit code 130.

let dir: { path: string; cleanup(): Promise<void> };
let model: ScriptedModel | undefined;
const leftovers: number[] = [];
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  for (const pid of leftovers.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await model?.close();
  model = undefined;
  await dir.cleanup();
});

const call = (name: string, args: unknown): ScriptedReply => ({ toolCalls: [{ name, arguments: args }] });
const turnOf = (request: RecordedRequest): number =>
  request.messages.filter((message) => message.role === 'assistant').length;

async function pidIn(file: string): Promise<number | undefined> {
  if (!existsSync(file)) return undefined;
  const pid = Number.parseInt(await readFile(file, 'utf8'), 10);
  return Number.isSafeInteger(pid) ? pid : undefined;
}

describe('a signal during agent run', () => {
  it('SIGINT cancels the run, its subagent and their shell commands, and exits 130', async () => {
    const workerPid = join(dir.path, 'worker.pid');
    const taskPid = join(dir.path, 'task.pid');
    model = await startScriptedModel({
      respond: (request) => {
        if (request.model === 'worker-model')
          return turnOf(request) === 0
            ? call('bash', { command: `echo $$ > ${workerPid}; exec sleep 300` })
            : { hang: true };
        switch (turnOf(request)) {
          case 0:
            return call('subagents__spawn', { agent: 'worker', task: 'Run the long command' });
          case 1:
            return call('bash', { command: `echo $$ > ${taskPid}; exec sleep 300`, run_in_background: true });
          default:
            return { hang: true };
        }
      },
    });
    await writeFile(
      join(dir.path, 'toolplane.config.yaml'),
      `builtin: { workspace: ., tools: [read, bash, task_output, task_stop] }
model: { name: main-model, maxRetries: 0 }
agents:
  worker:
    description: Runs a long command.
    systemPrompt: You run commands.
    model: worker-model
    tools: { allow: [bash] }
`,
    );
    const cli = startCli(['agent', 'run', '--yes', 'Start the worker and a background task'], {
      cwd: dir.path,
      env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: '' },
    });
    let stdout = '';
    let stderr = '';
    cli.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    cli.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // both commands run and the root waits on its third model request
    const up = await waitFor(
      async () =>
        (await pidIn(workerPid)) !== undefined &&
        (await pidIn(taskPid)) !== undefined &&
        model !== undefined &&
        model.requests.filter((request) => request.model === 'main-model').length >= 3,
      60_000,
    );
    expect(up, stderr).toBe(true);
    const pids = [(await pidIn(workerPid)) as number, (await pidIn(taskPid)) as number];
    leftovers.push(...pids);
    for (const pid of pids) expect(isAlive(pid)).toBe(true);
    cli.kill('SIGINT');
    const code = await exited(cli, 30_000);
    expect(code).toBe(130);
    expect(stderr).toContain('toolplane: stopped by SIGINT (exit code 130)');
    await waitFor(() => pids.every((pid) => !isAlive(pid)), 15_000);
    for (const pid of pids) expect(isAlive(pid), `pid ${pid}`).toBe(false);
    // no report and no outcome of the cut run
    expect(stdout).toBe('');
    expect(stderr).not.toContain('agent run(s)');
    // the model request the root was waiting on was given up
    await waitFor(() => (model?.closedEarly ?? 0) >= 1, 10_000);
    expect(model.closedEarly).toBeGreaterThanOrEqual(1);
  });
});
