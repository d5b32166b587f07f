import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, runCli, tempDir, writeJsonFile } from './helpers.js';

// `toolplane tools describe <name>`: one tool as a model sees it, with its risk, its provider
// and what a call of it would get from the policy.

let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    mcpServers: { fixture: fixtureServer() },
    builtin: { workspace: '.', tools: ['read', 'write'] },
    policy: { deny: ['fixture__fail'], agents: { reviewer: { deny: ['write'] } } },
  });
});
afterAll(() => dir.cleanup());

const describeTool = (...args: string[]) => runCli(['tools', 'describe', ...args], { cwd: dir.path });

interface Description {
  name: string;
  description: string;
  provider: { namespace: string; kind: string };
  risk: string;
  sideEffect?: string;
  annotations: Record<string, unknown>;
  inputSchema: { type: string; properties?: Record<string, unknown>; required?: string[] };
  outputSchema?: { properties?: Record<string, unknown> };
  visible: boolean;
  call: { decision: string; reason: string; source?: string };
}

describe('tools describe', () => {
  it('prints the description, provider, risk, annotations, verdict and input schema as text', async () => {
    const { code, stdout, stderr } = await describeTool('fixture__echo');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^name\s+fixture__echo$/m);
    expect(stdout).toMatch(/^provider\s+fixture \(mcp\)$/m);
    expect(stdout).toMatch(/^risk\s+low \(side effect: read\)$/m);
    expect(stdout).toMatch(/^annotations\s+readOnlyHint=true$/m);
    expect(stdout).toMatch(/^visible\s+yes$/m);
    expect(stdout).toMatch(/^a call gets\s+allow: fixture__echo is read-only/m);
    expect(stdout).toMatch(/^description\nEchoes a message\.$/m);
    expect(stdout).toContain('input schema');
    expect(stdout).toContain('"message"');
    expect(stdout).not.toContain('output schema');
  });

  it('prints the same facts as JSON with --json, output schema included when the tool has one', async () => {
    const [echo, add, write] = await Promise.all(
      ['fixture__echo', 'fixture__add', 'write'].map((name) => describeTool(name, '--json')),
    );
    for (const outcome of [echo, add, write]) expect(outcome?.code).toBe(0);
    const echoed = JSON.parse(echo?.stdout ?? '') as Description;
    expect(echoed).toMatchObject({
      name: 'fixture__echo',
      description: 'Echoes a message.',
      provider: { namespace: 'fixture', kind: 'mcp' },
      risk: 'low',
      annotations: { readOnlyHint: true },
      inputSchema: { type: 'object', required: ['message'] },
      visible: true,
      call: { decision: 'allow', source: 'read-only' },
    });
    expect(echoed.outputSchema).toBeUndefined();
    const added = JSON.parse(add?.stdout ?? '') as Description;
    expect(Object.keys(added.outputSchema?.properties ?? {})).toEqual(['sum']);
    const written = JSON.parse(write?.stdout ?? '') as Description;
    expect(written).toMatchObject({
      provider: { namespace: 'builtin', kind: 'builtin' },
      risk: 'medium',
      sideEffect: 'mutating',
      call: { decision: 'ask', source: 'risk' },
    });
    expect(Object.keys(written.inputSchema.properties ?? {})).toEqual(['path', 'content']);
  });

  it('describes a tool the policy hides, saying it is hidden and that a call is denied', async () => {
    const [denied, forAgent] = await Promise.all([
      describeTool('fixture__fail', '--json'),
      describeTool('write', '--agent', 'reviewer'),
    ]);
    expect(denied.code).toBe(0);
    expect(JSON.parse(denied.stdout)).toMatchObject({
      visible: false,
      call: { decision: 'deny', source: 'tool-list' },
    });
    expect(forAgent.code).toBe(0);
    expect(forAgent.stdout).toMatch(/^visible\s+no \(hidden by the policy/m);
    expect(forAgent.stdout).toMatch(/^a call gets\s+deny: write is not available to this agent/m);
  });

  it('refuses an unknown name with TOOL_NOT_FOUND, exit code 2 and the names it may have meant', async () => {
    const [misspelt, part, nothing, json] = await Promise.all([
      describeTool('raed'),
      describeTool('echo'),
      describeTool('zzqqxx'),
      describeTool('echo', '--json'),
    ]);
    for (const outcome of [misspelt, part, nothing, json]) {
      expect(outcome.code).toBe(2);
      expect(outcome.stderr).toMatch(/^toolplane: error: TOOL_NOT_FOUND: no tool named \w+ is configured/);
    }
    expect(misspelt.stdout).toBe('');
    expect(misspelt.stderr).toContain('did you mean read?');
    expect(part.stderr).toContain('did you mean fixture__echo?');
    expect(nothing.stderr).toContain('run `toolplane tools list` to see the names');
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      error: { code: 'TOOL_NOT_FOUND', hint: 'did you mean fixture__echo?' },
    });
  });

  it('refuses a missing name with a usage error, exit code 2', async () => {
    const { code, stderr } = await describeTool();
    expect(code).toBe(2);
    expect(stderr).toContain("missing required argument 'name'");
  });
});
