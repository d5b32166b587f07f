import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ScriptedModel, startScriptedModel } from '@toolplane/subagents/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

// A bad `agents:` or `model:` section is CONFIG_INVALID at its file, line and key, for
// `config validate` and for `agent run` (exit code 2, no model request made).

let dir: { path: string; cleanup(): Promise<void> };
let model: ScriptedModel;
beforeAll(async () => {
  dir = await tempDir();
  model = await startScriptedModel({ replies: { '*': [] } });
});
afterAll(async () => {
  await model.close();
  await dir.cleanup();
});

const BAD = `builtin: false
model: { name: main-model, apiKey: sk-written-in-the-file }
agents:
  researcher:
    description: Answers one question.
    systemPromt: You research.
  "bad name":
    description: x
    systemPrompt: y
  batch:
    description: x
    systemPrompt: y
  typed:
    description: x
    systemPrompt: y
    inputSchema: { type: string }
  broken:
    description: x
    systemPrompt: y
    inputSchema: { type: object, properties: { a: { type: 5 } } }
  router:
    description: x
    systemPrompt: y
    router: { destinations: [nobody] }
  limited:
    description: x
    systemPrompt: y
    budgets: { maxIterations: 0 }
    mode: careless
`;

interface Issue {
  readonly path: string;
  readonly line: number;
  readonly message: string;
}

describe('bad agents and model sections', () => {
  it('config validate names every bad key with its line', async () => {
    await writeFile(join(dir.path, 'toolplane.config.yaml'), BAD);
    const run = await runCli(['config', 'validate', '--json'], { cwd: dir.path });
    expect(run.code).toBe(2);
    const issues = (JSON.parse(run.stdout) as { issues: Issue[] }).issues;
    const at = (path: string): Issue | undefined => issues.find((issue) => issue.path === path);
    expect(at('model.apiKey')?.message).toContain('environment variable reference');
    expect(at('model.apiKey')?.line).toBe(2);
    expect(at('agents.researcher.systemPromt')?.message).toContain('unknown field "systemPromt"');
    expect(at('agents.researcher.systemPromt')?.line).toBe(6);
    expect(at('agents.researcher.systemPrompt')?.message).toBeDefined();
    expect(at('agents.bad name')?.message).toContain('1 to 48 letters, digits');
    expect(at('agents.batch')?.message).toContain("taken by the runner's own tools");
    expect(at('agents.limited.budgets.maxIterations')).toBeDefined();
    expect(at('agents.limited.mode')).toBeDefined();
    // the schema's problems come first; the deeper checks run on a config that passed it
    await writeFile(
      join(dir.path, 'toolplane.config.yaml'),
      BAD.replace(/^model:.*$/m, 'model: { name: main-model }')
        .replace('systemPromt', 'systemPrompt')
        .replace('"bad name"', 'named')
        .replace('batch:', 'batcher:')
        .replace(/budgets: \{ maxIterations: 0 \}\n {4}mode: careless/, 'budgets: { maxIterations: 3 }'),
    );
    const deep = await runCli(['config', 'validate', '--json'], { cwd: dir.path });
    expect(deep.code).toBe(2);
    const deeper = (JSON.parse(deep.stdout) as { issues: Issue[] }).issues;
    expect(deeper.map((issue) => issue.path).sort()).toEqual([
      'agents.broken.inputSchema',
      'agents.router.router.destinations[0]',
      'agents.typed.inputSchema',
    ]);
    expect(deeper.find((issue) => issue.path === 'agents.typed.inputSchema')?.message).toContain(
      'must have type "object"',
    );
    expect(deeper.find((issue) => issue.path === 'agents.broken.inputSchema')?.message).toContain(
      'is not a JSON Schema that compiles',
    );
    expect(deeper.find((issue) => issue.path === 'agents.router.router.destinations[0]')?.line).toBe(24);
  });

  it('agent run refuses a bad agents section with CONFIG_INVALID naming the key, and asks no model', async () => {
    await writeFile(
      join(dir.path, 'toolplane.config.yaml'),
      'builtin: false\nmodel: { name: m }\nagents:\n  researcher: { description: x, systemPrompt: y, tols: [read] }\n',
    );
    const run = await runCli(['agent', 'run', 'Do it'], {
      cwd: dir.path,
      env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: '' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'toolplane: error: CONFIG_INVALID: invalid config: toolplane.config.yaml:4:',
    );
    expect(run.stderr).toContain('agents.researcher.tols  unknown field "tols"');
    expect(run.stdout).toBe('');
    expect(model.requests).toHaveLength(0);
  });

  it('agent run --agent with a name the config does not define is CONFIG_INVALID listing the agents', async () => {
    await writeFile(
      join(dir.path, 'toolplane.config.yaml'),
      'builtin: false\nmodel: { name: m }\nagents:\n  researcher: { description: x, systemPrompt: y }\n',
    );
    const run = await runCli(['agent', 'run', '--agent', 'writer', 'Do it', '--json'], {
      cwd: dir.path,
      env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: '' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('CONFIG_INVALID: --agent writer names no agent of the config');
    expect(run.stderr).toContain("hint: the config's agents: researcher");
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { code: 'CONFIG_INVALID' } });
    expect(model.requests).toHaveLength(0);
  });
});
