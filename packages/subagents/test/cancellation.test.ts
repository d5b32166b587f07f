import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuiltinProvider, createBuiltinProvider } from '@toolplane/builtin-fs-shell';
import { createToolContext } from '@toolplane/core';
import { createMcpProvider } from '@toolplane/mcp-provider';
import { afterEach, describe, expect, it } from 'vitest';
import { agent, call, report, setup, until } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'subagents-'));
  dirs.push(dir);
  return dir;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const pidIn = (file: string): number => Number(readFileSync(file, 'utf8').trim());

describe('cancellation reaches everything a child started', () => {
  it('kills a real long shell command and the background task of a cancelled child', async () => {
    const workspace = tempDir();
    let builtin: BuiltinProvider | undefined;
    await using h = await setup({
      agents: [agent('shell', { tools: { allow: ['bash'] } })],
      register: (orchestrator) => {
        builtin = createBuiltinProvider({ workspace });
        orchestrator.register(builtin);
      },
      manager: { onSessionEnd: (sessionId) => builtin?.forgetSession(sessionId) },
      scripts: {
        'shell-model': (turn) =>
          turn === 0
            ? call('bash', { command: 'echo $$ > bg.pid; exec sleep 120', run_in_background: true })
            : call('bash', { command: 'echo $$ > fg.pid; exec sleep 120', timeout: 300_000 }),
      },
    });
    const parent = createToolContext({ session: { id: 'app' } });
    const record = h.manager.spawn({ agent: 'shell', task: 'run things', parent, background: true });
    await until(() => existsSync(join(workspace, 'fg.pid')) && existsSync(join(workspace, 'bg.pid')));
    const fg = pidIn(join(workspace, 'fg.pid'));
    const bg = pidIn(join(workspace, 'bg.pid'));
    expect(alive(fg) && alive(bg)).toBe(true);
    expect(await h.manager.cancel('app', record.id)).toEqual([record.id]);
    await until(() => !alive(fg) && !alive(bg));
    const outcome = await h.manager.wait(record.id);
    expect(outcome.status).toBe('cancelled');
    expect(outcome.error?.code).toBe('CANCELLED');
  });

  it('sends notifications/cancelled to a real MCP server running a child call', async () => {
    const log = join(tempDir(), 'mcp.log');
    await using h = await setup({
      agents: [agent('mcp-user')],
      register: (orchestrator) =>
        orchestrator.register(
          createMcpProvider('fixture', {
            type: 'stdio',
            command: process.execPath,
            args: [join(here, 'fixtures/cancel-server.mjs'), log],
          }),
        ),
      scripts: { 'mcp-user-model': () => call('fixture__block') },
    });
    const parent = createToolContext({ session: { id: 'app' } });
    const record = h.manager.spawn({ agent: 'mcp-user', task: 'block', parent, background: true });
    await until(() => existsSync(log) && readFileSync(log, 'utf8').includes('started'), 3000);
    await h.manager.cancel('app', 'last');
    await until(() => readFileSync(log, 'utf8').includes('cancelled'), 3000);
    expect((await h.manager.wait(record.id)).status).toBe('cancelled');
  });

  it('aborts a child model request that hangs', async () => {
    await using h = await setup({
      agents: [agent('stuck')],
      scripts: { 'stuck-model': () => ({ hang: true }) },
    });
    const parent = createToolContext({ session: { id: 'app' } });
    const record = h.manager.spawn({ agent: 'stuck', task: 'x', parent, background: true });
    await h.model.waitForRequests(1);
    await h.manager.cancel('app', 'all');
    await until(() => h.model.closedEarly === 1);
    expect((await h.manager.wait(record.id)).status).toBe('cancelled');
  });

  it('cancels a grandchild and its tool call when the root run is cancelled', async () => {
    const stop = new AbortController();
    await using h = await setup({
      agents: [agent('planner'), agent('worker')],
      limits: { maxSpawnDepth: 2 },
      scripts: {
        'root-model': () => call('agent__planner', { task: 'plan' }),
        'planner-model': () => call('agent__worker', { task: 'work' }),
        'worker-model': () => call('t__slow'),
      },
    });
    const run = h.manager.runAgent({ task: 'go', signal: stop.signal });
    await until(() => h.state.slowStarted === 1);
    const worker = h.steps.find((s) => s.type === 'child-spawned' && s.agent === 'planner');
    stop.abort();
    const outcome = await run;
    expect(outcome.status).toBe('cancelled');
    expect(h.state.slowCancelled).toBe(1);
    const childId = worker?.type === 'child-spawned' ? worker.childId : '';
    expect(h.manager.get(childId)?.state).toBe('cancelled');
    const ended = h.steps
      .filter((s) => s.type === 'run-ended')
      .map((s) => `${s.agent}:${s.type === 'run-ended' ? s.status : ''}`);
    expect(ended).toEqual(['worker:cancelled', 'planner:cancelled', 'main:cancelled']);
    // child steps are the parent's, and name the child in childAgent
    const children = h.steps
      .filter((s) => s.type === 'child-spawned' || s.type === 'child-ended')
      .map(
        (s) =>
          `${s.agent}>${s.type === 'child-spawned' || s.type === 'child-ended' ? s.childAgent : ''}:${s.type}`,
      );
    expect(children).toEqual([
      'main>planner:child-spawned',
      'planner>worker:child-spawned',
      'planner>worker:child-ended',
      'main>planner:child-ended',
    ]);
    expect(h.manager.runningCount).toBe(0);
  });

  it('a child ends its background children when it ends', async () => {
    await using h = await setup({
      agents: [agent('planner'), agent('worker')],
      limits: { maxSpawnDepth: 2 },
      scripts: {
        'planner-model': (turn) =>
          turn === 0 ? call('subagents__spawn', { agent: 'worker', task: 'work' }) : report('planned'),
        'worker-model': () => call('t__slow'),
      },
    });
    const parent = createToolContext({ session: { id: 'app' } });
    const outcome = await h.manager.run({ agent: 'planner', task: 'plan', parent });
    expect(outcome.report?.content).toBe('planned');
    // the worker may or may not have reached its tool: either way it is stopped
    expect(h.manager.runningCount).toBe(0);
    expect(h.state.slowStarted).toBe(h.state.slowCancelled);
  });
});
