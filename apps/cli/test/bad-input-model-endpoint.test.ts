import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ScriptedModel, startScriptedModel } from '@toolplane/subagents/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeToken, runCli, tempDir } from './helpers.js';

// Where `agent run` finds its model, and what it says when the model is missing, refuses, fails
// or does not answer: one error line with a stable code and a hint, and the exit code.

let dir: { path: string; cleanup(): Promise<void> };
let model: ScriptedModel | undefined;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await model?.close();
  model = undefined;
  await dir.cleanup();
});

async function config(text: string): Promise<void> {
  await writeFile(join(dir.path, 'toolplane.config.yaml'), `builtin: false\n${text}`);
}

const NO_OPENAI = { OPENAI_BASE_URL: '', OPENAI_API_KEY: '' };

describe('the model endpoint of agent run', () => {
  it('is CONFIG_INVALID saying what to set when none is configured', async () => {
    await config('model: { name: main-model }\n');
    const run = await runCli(['agent', 'run', 'Do it'], { cwd: dir.path, env: NO_OPENAI });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'toolplane: error: CONFIG_INVALID: agent run has no model endpoint: the config has no model.baseUrl and OPENAI_BASE_URL is not set',
    );
    expect(run.stderr).toContain('hint: set model.baseUrl in the config or OPENAI_BASE_URL');
    expect(run.stdout).toBe('');
  });

  it('is CONFIG_INVALID without a model name, with a base URL that is not http(s), or a key variable without a value', async () => {
    await config('model: { baseUrl: "http://127.0.0.1:9/v1" }\n');
    const noName = await runCli(['agent', 'run', 'Do it'], { cwd: dir.path, env: NO_OPENAI });
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain('CONFIG_INVALID: agent run has no model name');
    expect(noName.stderr).toContain('set model.name in the config');
    await config('model: { name: m }\n');
    const envUrl = await runCli(['agent', 'run', 'Do it'], {
      cwd: dir.path,
      env: { ...NO_OPENAI, OPENAI_BASE_URL: 'file:///etc/passwd' },
    });
    expect(envUrl.code).toBe(2);
    expect(envUrl.stderr).toContain('CONFIG_INVALID: OPENAI_BASE_URL must be an http(s) URL up to /v1');
    await config('model: { baseUrl: "ftp://example.invalid/v1", name: m }\n');
    const ftp = await runCli(['agent', 'run', 'Do it'], { cwd: dir.path, env: NO_OPENAI });
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toContain('CONFIG_INVALID: model.baseUrl must be an http(s) URL up to /v1');
    await config(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a ${VAR} reference the CLI expands
      'model: { baseUrl: "http://127.0.0.1:9/v1", name: m, apiKey: "${TOOLPLANE_TEST_UNSET_KEY}" }\n',
    );
    const unset = await runCli(['agent', 'run', 'Do it'], { cwd: dir.path, env: NO_OPENAI });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the reference as the message quotes it
      'CONFIG_INVALID: model.apiKey uses ${TOOLPLANE_TEST_UNSET_KEY}, which has no value',
    );
  });

  it('sends the key model.apiKey names, and never prints it', async () => {
    model = await startScriptedModel({
      replies: {
        m: [
          {
            toolCalls: [
              {
                name: 'agent__final_report',
                arguments: { status: 'success', format: 'text', content: 'ok' },
              },
            ],
          },
        ],
      },
    });
    const key = fakeToken('sk-test-');
    await config(`model: { baseUrl: "${model.url}", name: m, apiKey: "\${TOOLPLANE_TEST_KEY}" }\n`);
    const run = await runCli(['agent', 'run', '--json', 'Do it'], {
      cwd: dir.path,
      env: { ...NO_OPENAI, TOOLPLANE_TEST_KEY: key },
    });
    expect(run.code).toBe(0);
    expect(model.requests[0]?.authorization).toBe(`Bearer ${key}`);
    expect(run.stdout + run.stderr).not.toContain(key);
  });

  it('reports a model that answers 500 as PROVIDER_UNAVAILABLE with exit code 1', async () => {
    model = await startScriptedModel({ replies: { m: [{ error: 500, body: 'the model is down' }] } });
    await config('model: { name: m, maxRetries: 0 }\n');
    const run = await runCli(['agent', 'run', 'Do it'], {
      cwd: dir.path,
      env: { ...NO_OPENAI, OPENAI_BASE_URL: model.url },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('main ended failed: PROVIDER_UNAVAILABLE');
    expect(run.stderr).toMatch(/toolplane: error: PROVIDER_UNAVAILABLE: .*500/);
    expect(run.stderr).toContain('hint: check that the model endpoint runs and answers');
    expect(run.stdout).toBe('');
    expect(model.requests).toHaveLength(1);
  });

  it('reports a key the endpoint refuses (401) as CONFIG_INVALID with exit code 2', async () => {
    model = await startScriptedModel({
      replies: { m: [{ error: 401, body: '{"error":{"message":"bad key"}}' }] },
    });
    await config('model: { name: m, maxRetries: 0 }\n');
    const run = await runCli(['agent', 'run', '--json', 'Do it'], {
      cwd: dir.path,
      env: { ...NO_OPENAI, OPENAI_BASE_URL: model.url },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('toolplane: error: CONFIG_INVALID');
    const outcome = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as {
      type: string;
      status: string;
    };
    expect(outcome).toMatchObject({ type: 'outcome', status: 'failed' });
  });

  it('reports a model that never answers as TIMEOUT naming requestTimeoutMs, with exit code 1', async () => {
    model = await startScriptedModel({ replies: { m: [{ hang: true }] } });
    await config('model: { name: m, maxRetries: 0, requestTimeoutMs: 1000 }\n');
    const run = await runCli(['agent', 'run', 'Do it'], {
      cwd: dir.path,
      env: { ...NO_OPENAI, OPENAI_BASE_URL: model.url },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/toolplane: error: TIMEOUT: .*requestTimeoutMs/);
    expect(run.stderr).toContain('hint: check the model endpoint; raise model.requestTimeoutMs');
    expect(run.stdout).toBe('');
    // the hung request was given up: the client closed it
    expect(model.closedEarly).toBe(1);
  });
});
