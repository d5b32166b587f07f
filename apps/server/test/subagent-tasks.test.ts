import { type RecordedRequest, type ScriptedModel, startScriptedModel } from '@toolplane/subagents/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ECHO_TOOL,
  type TestServer,
  grant,
  makeKey,
  putCustomTool,
  startTestServer,
  storages,
} from './helpers/test-server.js';

const lastMessage = (request: RecordedRequest): string => String(request.messages.at(-1)?.content);
const report = (content: string) => ({
  toolCalls: [{ name: 'agent__final_report', arguments: { status: 'success', format: 'text', content } }],
});

/** A task that starts with "Quick" reports at once, one that starts with "Only" too; any other hangs. */
function respond(request: RecordedRequest) {
  const text = lastMessage(request);
  if (text.startsWith('Quick')) return report(`quick answer to: ${text}`);
  if (text.startsWith('Only')) return report('B is 2x faster.');
  return { hang: true } as const;
}

/** Spawns a background task by calling `subagents__spawn` with `key`, answering its id. */
async function spawn(t: TestServer, key: string, task: string): Promise<string> {
  const call = await t.api('POST', '/v1/tools/subagents__spawn/call', {
    key,
    body: { arguments: { agent: 'researcher', task } },
  });
  if (call.status !== 200 || !call.body.result.ok)
    throw new Error(`spawn refused: ${JSON.stringify(call.body)}`);
  const id = /sub_[A-Za-z0-9_]+/.exec(JSON.stringify(call.body.result.content))?.[0];
  if (!id) throw new Error(`no task id in ${JSON.stringify(call.body.result)}`);
  return id;
}

/** Reads a task until it has left `running` (bounded: 200 reads). */
async function untilEnded(t: TestServer, key: string, id: string) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const read = await t.api('GET', `/v1/tasks/${id}`, { key });
    if (read.status !== 200) throw new Error(`task read failed: ${JSON.stringify(read.body)}`);
    if (read.body.task.state !== 'running' && read.body.task.state !== 'spawning') return read.body.task;
    await new Promise((done) => setTimeout(done, 25));
  }
  throw new Error(`task ${id} did not end`);
}

describe.each(storages())('subagent task routes on $kind', ({ kind, skip }) => {
  let t: TestServer;
  let model: ScriptedModel;
  let coder: string;
  let reviewer: string;
  let otherTenantAdmin: string;

  beforeAll(async () => {
    if (skip) return;
    model = await startScriptedModel({ respond });
    t = await startTestServer({
      storage: kind,
      subagents: {
        endpoint: { baseUrl: model.url, model: 'main-model', stream: false },
        agents: [
          {
            name: 'researcher',
            description: 'Answers one research question.',
            systemPrompt: 'You research. End with agent__final_report.',
            model: 'researcher-model',
          },
        ],
        settleMs: 10,
      },
    });
    coder = await makeKey(t, t.adminKey, 'agent', 'coder');
    reviewer = await makeKey(t, t.adminKey, 'agent', 'reviewer');
    for (const agent of ['coder', 'reviewer']) await grant(t, 'agent', agent, ['subagents__*']);
    const tenant = await t.api('POST', '/v1/tenants', { key: t.adminKey, body: { id: 'other-co' } });
    otherTenantAdmin = tenant.body.key;
  });
  afterAll(async () => {
    await t?.close();
    await model?.close();
  });

  it.skipIf(skip)('lists an agent its own tasks only, and the admin every task of the tenant', async () => {
    const mine = await spawn(t, coder, 'Compare A and B in every way');
    const theirs = await spawn(t, reviewer, 'Review everything');
    const coderList = await t.api('GET', '/v1/tasks', { key: coder });
    expect(coderList.status).toBe(200);
    const coderIds = coderList.body.tasks.map((task: { id: string }) => task.id);
    expect(coderIds).toContain(mine);
    expect(coderIds).not.toContain(theirs);
    const own = coderList.body.tasks.find((task: { id: string }) => task.id === mine);
    expect(own).toMatchObject({
      agent: 'researcher',
      state: 'running',
      background: true,
      task: 'Compare A and B in every way',
      owner: { kind: 'agent', id: 'coder' },
    });
    const adminIds = (await t.api('GET', '/v1/tasks', { key: t.adminKey })).body.tasks.map(
      (task: { id: string }) => task.id,
    );
    expect(adminIds).toEqual(expect.arrayContaining([mine, theirs]));
    for (const id of [mine, theirs]) await t.api('POST', `/v1/tasks/${id}/cancel`, { key: t.adminKey });
  });

  it.skipIf(skip)("answers 404 task_not_found for another principal's or another tenant's task", async () => {
    const id = await spawn(t, coder, 'Keep working on the coder task');
    const attempts = [
      { method: 'GET', path: `/v1/tasks/${id}` },
      { method: 'POST', path: `/v1/tasks/${id}/cancel` },
      { method: 'POST', path: `/v1/tasks/${id}/steer`, body: { message: 'Only B' } },
    ];
    for (const key of [reviewer, otherTenantAdmin])
      for (const attempt of attempts) {
        const answer = await t.api(attempt.method, attempt.path, { key, body: attempt.body });
        expect(answer.status).toBe(404);
        expect(answer.body.error).toMatchObject({ code: 'INVALID_ARGUMENTS', reason: 'task_not_found' });
      }
    expect((await t.api('GET', '/v1/tasks', { key: otherTenantAdmin })).body.tasks).toEqual([]);
    const unknown = await t.api('GET', '/v1/tasks/sub_unknown', { key: t.adminKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('GET /v1/tasks');
    expect((await t.api('GET', `/v1/tasks/${id}`, { key: coder })).body.task.state).toBe('running');
    await t.api('POST', `/v1/tasks/${id}/cancel`, { key: coder });
  });

  it.skipIf(skip)('refuses every task route without a key or with a wrong key: 401', async () => {
    const id = await spawn(t, coder, 'Hold on');
    const wrong = `tpk_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`;
    for (const key of [undefined, wrong])
      for (const [method, path] of [
        ['GET', '/v1/tasks'],
        ['GET', `/v1/tasks/${id}`],
        ['POST', `/v1/tasks/${id}/cancel`],
        ['POST', `/v1/tasks/${id}/steer`],
      ] as const) {
        const body = method === 'POST' ? { body: { message: 'x' } } : {};
        const answer = await t.api(method, path, { ...(key ? { key } : {}), ...body });
        expect(answer.status).toBe(401);
        expect(answer.body.error.code).toBe('DENIED');
      }
    await t.api('POST', `/v1/tasks/${id}/cancel`, { key: coder });
  });

  it.skipIf(skip)('cancels a running task once, then answers 409 task_finished', async () => {
    const id = await spawn(t, coder, 'Work until cancelled');
    const cancelled = await t.api('POST', `/v1/tasks/${id}/cancel`, { key: coder });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.task).toMatchObject({ id, state: 'cancelled' });
    expect(cancelled.body.task.endedAt).toEqual(expect.any(String));
    const again = await t.api('POST', `/v1/tasks/${id}/cancel`, { key: coder });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'INVALID_ARGUMENTS', reason: 'task_finished' });
    expect(again.body.error.message).toContain('cancelled');
  });

  it.skipIf(skip)('lets an admin cancel an agent task, which ends with CANCELLED', async () => {
    const id = await spawn(t, reviewer, 'Review until stopped');
    const cancelled = await t.api('POST', `/v1/tasks/${id}/cancel`, { key: t.adminKey });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.task.error.code).toBe('CANCELLED');
    expect(cancelled.body.task.owner).toEqual({ kind: 'agent', id: 'reviewer' });
  });

  it.skipIf(skip)('keeps a finished task with its report; steering it answers 409', async () => {
    const id = await spawn(t, coder, 'Quick: what is 2 + 2?');
    const ended = await untilEnded(t, coder, id);
    expect(ended.state).toBe('completed');
    expect(ended.report).toMatchObject({ status: 'success', content: expect.stringContaining('2 + 2') });
    const steer = await t.api('POST', `/v1/tasks/${id}/steer`, { key: coder, body: { message: 'Only B' } });
    expect(steer.status).toBe(409);
    expect(steer.body.error.reason).toBe('task_finished');
  });

  it.skipIf(skip)("steers a running task into a new one that runs as the owner's task", async () => {
    const id = await spawn(t, coder, 'Compare A and B in every way');
    const steered = await t.api('POST', `/v1/tasks/${id}/steer`, {
      key: t.adminKey,
      body: { message: 'Only B matters: how fast is it?' },
    });
    expect(steered.status).toBe(200);
    expect(steered.body.replaced).toBe(id);
    const next = steered.body.task;
    expect(next.id).not.toBe(id);
    expect(next).toMatchObject({ steeredFrom: id, owner: { kind: 'agent', id: 'coder' } });
    expect((await t.api('GET', `/v1/tasks/${id}`, { key: coder })).body.task.state).toBe('cancelled');
    const ended = await untilEnded(t, coder, next.id);
    expect(ended).toMatchObject({ state: 'completed', report: { content: 'B is 2x faster.' } });
    const asked = model.requests.filter((request) => lastMessage(request).startsWith('Only B matters'));
    expect(asked.length).toBeGreaterThan(0);
  });

  it.skipIf(skip)('keeps a running task when the tenant tools are rebuilt, and steers it after', async () => {
    const id = await spawn(t, coder, 'Survive a reload');
    await putCustomTool(t, 'echo', ECHO_TOOL);
    expect((await t.api('GET', `/v1/tasks/${id}`, { key: coder })).body.task.state).toBe('running');
    const steered = await t.api('POST', `/v1/tasks/${id}/steer`, { key: coder, body: { message: 'Only B' } });
    expect(steered.status).toBe(200);
    expect((await untilEnded(t, coder, steered.body.task.id)).state).toBe('completed');
  });

  it.skipIf(skip)('refuses a steer without a message: 400 schema', async () => {
    const id = await spawn(t, coder, 'Hold for the steer');
    const answer = await t.api('POST', `/v1/tasks/${id}/steer`, { key: coder, body: {} });
    expect(answer.status).toBe(400);
    expect(answer.body.error.reason).toBe('schema');
    await t.api('POST', `/v1/tasks/${id}/cancel`, { key: coder });
  });

  it.skipIf(skip)('documents the task routes in /openapi.json, each behind the bearer key', async () => {
    const doc = (await t.api('GET', '/openapi.json')).body;
    expect(doc.paths['/v1/tasks'].get.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/v1/tasks/{id}'].get.responses['404']).toBeDefined();
    expect(doc.paths['/v1/tasks/{id}/cancel'].post.responses['409']).toBeDefined();
    expect(doc.paths['/v1/tasks/{id}/steer'].post.requestBody).toBeDefined();
  });
});
