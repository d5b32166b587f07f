import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ScriptedModel, type ScriptedReply, startScriptedModel } from '@toolplane/subagents/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

// `toolplane agent run` against the scripted OpenAI-compatible model on loopback: the real
// runner, the real built-in tools, real subagents, over real HTTP.

let dir: { path: string; cleanup(): Promise<void> };
let model: ScriptedModel | undefined;
beforeEach(async () => {
  dir = await tempDir();
  await writeFile(join(dir.path, 'hello.txt'), 'hello from the file\n');
  await writeFile(
    join(dir.path, 'toolplane.config.yaml'),
    `builtin: { workspace: ., tools: [read, list] }
model: { name: main-model, maxRetries: 0 }
agents:
  researcher:
    description: Answers one question about the files.
    systemPrompt: You research. End with agent__final_report.
    model: researcher-model
    tools: { allow: [read] }
`,
  );
});
afterEach(async () => {
  await model?.close();
  model = undefined;
  await dir.cleanup();
});

const call = (name: string, args: unknown): ScriptedReply => ({ toolCalls: [{ name, arguments: args }] });
const report = (content: string, status = 'success'): ScriptedReply =>
  call('agent__final_report', { status, format: 'text', content });

/** Runs `agent run` with the scripted model as OPENAI_BASE_URL. */
function agentRun(args: readonly string[], url: string) {
  return runCli(['agent', 'run', ...args], {
    cwd: dir.path,
    env: { OPENAI_BASE_URL: url, OPENAI_API_KEY: '' },
  });
}

/** The text of the tool messages a recorded request carries. */
function toolMessages(messages: readonly Record<string, unknown>[]): string[] {
  return messages.filter((message) => message.role === 'tool').map((message) => String(message.content));
}

describe('agent run', () => {
  it('runs a task that calls a built-in tool and prints the final report on stdout', async () => {
    model = await startScriptedModel({
      replies: { 'main-model': [call('read', { path: 'hello.txt' }), report('The file greets.')] },
    });
    const run = await agentRun(['Read hello.txt'], model.url);
    expect(run.stderr).toContain('main started (model main-model): Read hello.txt');
    expect(run.stderr).toContain('main → read {"path":"hello.txt"}');
    expect(run.stderr).toContain('main ← read ok: 1 hello from the file');
    expect(run.stderr).toContain('main ended completed');
    expect(run.stderr).toContain('completed · report success · 2 model turn(s) · 1 tool call(s)');
    expect(run.stdout).toBe('The file greets.\n');
    expect(run.code).toBe(0);
    // the real tool's result went back to the model
    expect(model.requests).toHaveLength(2);
    expect(toolMessages(model.requests[1]?.messages ?? []).join('\n')).toContain('hello from the file');
    // the model was offered the configured tools, the subagent and the runner's own tools
    const offered = model.requests[0]?.tools.map((tool) => tool.function.name) ?? [];
    expect(offered).toEqual(
      expect.arrayContaining(['read', 'list', 'agent__researcher', 'agent__final_report']),
    );
  });

  it('spawns a subagent with --yes: its steps are printed under the parent and its report reaches it', async () => {
    model = await startScriptedModel({
      replies: {
        'main-model': [call('agent__researcher', { task: 'What does hello.txt say?' }), report('It greets.')],
        'researcher-model': [call('read', { path: 'hello.txt' }), report('hello from the file')],
      },
    });
    const run = await agentRun(['--yes', 'Ask the researcher'], model.url);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('main → agent__researcher {"task":"What does hello.txt say?"}');
    expect(run.stderr).toMatch(/main spawned subagent researcher \(sub_\S+\): What does hello\.txt say\?/);
    expect(run.stderr).toContain('  researcher started (model researcher-model): What does hello.txt say?');
    expect(run.stderr).toContain('  researcher → read {"path":"hello.txt"}');
    expect(run.stderr).toContain('  researcher ended completed');
    expect(run.stderr).toMatch(/main: subagent researcher \(sub_\S+\) completed/);
    expect(run.stderr).toContain('main ← agent__researcher ok: hello from the file');
    expect(run.stderr).toContain('2 agent run(s)');
    expect(run.stdout).toBe('It greets.\n');
    const researcher = model.requests.filter((request) => request.model === 'researcher-model');
    expect(researcher).toHaveLength(2);
    // the child saw only its allowed tool and the runner's own
    const childTools = researcher[0]?.tools.map((tool) => tool.function.name) ?? [];
    expect(childTools).toContain('read');
    expect(childTools).not.toContain('list');
    expect(childTools).not.toContain('agent__researcher');
    const last = model.requests.filter((request) => request.model === 'main-model')[1];
    expect(toolMessages(last?.messages ?? []).join('\n')).toContain('hello from the file');
  });

  it('without a terminal or --yes, a spawn fails closed with APPROVAL_REQUIRED and the run goes on', async () => {
    model = await startScriptedModel({
      replies: {
        'main-model': [
          call('agent__researcher', { task: 'What does hello.txt say?' }),
          report('No researcher.'),
        ],
      },
    });
    const run = await agentRun(['Ask the researcher'], model.url);
    expect(run.stderr).toContain('main ✗ agent__researcher APPROVAL_REQUIRED');
    expect(run.stdout).toBe('No researcher.\n');
    expect(run.code).toBe(0);
    expect(model.requests.filter((request) => request.model === 'researcher-model')).toHaveLength(0);
    expect(toolMessages(model.requests[1]?.messages ?? []).join('\n')).toContain('APPROVAL_REQUIRED');
  });

  it('--json prints every step as a JSON line tagged with run, agent and depth, then the outcome', async () => {
    model = await startScriptedModel({
      replies: {
        'main-model': [
          { text: 'Let me ask.', toolCalls: [{ name: 'agent__researcher', arguments: { task: 'Look' } }] },
          report('Done.'),
        ],
        'researcher-model': [report('looked')],
      },
    });
    const run = await agentRun(['--yes', '--json', 'Ask the researcher'], model.url);
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const types = lines.map((line) => line.type);
    for (const type of [
      'run-started',
      'model-requested',
      'text-streamed',
      'message-received',
      'tool-started',
      'child-spawned',
      'child-ended',
      'tool-finished',
      'run-ended',
    ])
      expect(types, type).toContain(type);
    expect(types.indexOf('child-spawned')).toBeLessThan(types.indexOf('child-ended'));
    for (const line of lines.slice(0, -1)) {
      expect(typeof line.runId).toBe('string');
      expect(typeof line.agent).toBe('string');
      expect([0, 1]).toContain(line.depth);
    }
    expect(lines.filter((line) => line.depth === 1 && line.type === 'run-started')).toHaveLength(1);
    const outcome = lines.at(-1) as {
      type: string;
      status: string;
      report: { content: string };
      usage: { runs: number };
    };
    expect(outcome.type).toBe('outcome');
    expect(outcome.status).toBe('completed');
    expect(outcome.report.content).toBe('Done.');
    expect(outcome.usage.runs).toBe(2);
  });

  it('exits 1 when the agent reports failure, with the report on stdout', async () => {
    model = await startScriptedModel({ replies: { 'main-model': [report('Could not do it.', 'failure')] } });
    const run = await agentRun(['--trace', 'Do the impossible'], model.url);
    expect(run.stdout).toBe('Could not do it.\n');
    expect(run.stderr).toContain('completed · report failure');
    expect(run.stderr).toContain('operation tree:');
    expect(run.code).toBe(1);
  });

  it('refuses an empty task with INVALID_ARGUMENTS before anything starts', async () => {
    const run = await runCli(['agent', 'run', '  '], { cwd: dir.path });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('toolplane: error: INVALID_ARGUMENTS: the task is empty');
  });

  it('runs an agent of the config as the root with --agent', async () => {
    model = await startScriptedModel({
      replies: { 'researcher-model': [call('read', { path: 'hello.txt' }), report('read it')] },
    });
    const run = await agentRun(['--agent', 'researcher', 'Read hello.txt'], model.url);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('researcher started (model researcher-model): Read hello.txt');
    expect(run.stdout).toBe('read it\n');
    expect(model.requests[0]?.messages[0]?.content).toBe('You research. End with agent__final_report.');
  });
});
