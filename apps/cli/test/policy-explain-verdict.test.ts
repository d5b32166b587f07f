import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, runCli, tempDir, writeJsonFile } from './helpers.js';

// `toolplane policy explain <tool>` ends with what a call of the tool would get: allow, ask or
// deny and the reason, or, for a shell tool, that its command rules decide per call.

let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  const builtin = { workspace: '.', tools: ['read', 'write', 'edit', 'bash'] };
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    mcpServers: { fixture: fixtureServer() },
    builtin,
    policy: {
      deny: ['fixture__fail'],
      alwaysAsk: ['fixture__echo'],
      autoAllow: ['fixture__write_note'],
      agents: { reviewer: { deny: ['bash'] } },
    },
  });
  await writeJsonFile(dir.path, 'plan.config.json', { builtin, policy: { mode: 'plan' } });
});
afterAll(() => dir.cleanup());

type Verdict = { decision: string; reason: string; source?: string };

async function verdictOf(...args: string[]): Promise<Verdict> {
  const { code, stdout, stderr } = await runCli(['policy', 'explain', ...args, '--json'], { cwd: dir.path });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return (JSON.parse(stdout) as { call: Verdict }).call;
}

describe('policy explain: what a call gets', () => {
  it('says allow for a read-only tool and a tool on autoAllow, with the reason', async () => {
    const [read, note] = await Promise.all([verdictOf('read'), verdictOf('fixture__write_note')]);
    expect(read).toEqual({ decision: 'allow', source: 'read-only', reason: 'read is read-only (risk low)' });
    expect(note).toMatchObject({ decision: 'allow', source: 'auto-allow' });
    expect(note.reason).toContain('autoAllow');
  });

  it('says ask for a tool with risk above low and for a tool on alwaysAsk', async () => {
    const [write, echo] = await Promise.all([verdictOf('write'), verdictOf('fixture__echo')]);
    expect(write).toMatchObject({ decision: 'ask', source: 'risk' });
    expect(write.reason).toBe('write has risk medium and the session is in default mode');
    expect(echo).toMatchObject({ decision: 'ask', source: 'always-ask' });
    expect(echo.reason).toContain('alwaysAsk');
  });

  it('says deny for a tool the deny list or an agent rule hides, naming the rule', async () => {
    const [failing, bashForReviewer] = await Promise.all([
      verdictOf('fixture__fail'),
      verdictOf('bash', '--agent', 'reviewer'),
    ]);
    expect(failing).toMatchObject({ decision: 'deny', source: 'tool-list' });
    expect(failing.reason).toContain('global deny list matches: fixture__fail');
    expect(bashForReviewer).toMatchObject({ decision: 'deny', source: 'tool-list' });
    expect(bashForReviewer.reason).toContain('deny list of agent "reviewer" matches: bash');
  });

  it('says a shell tool depends on its command, unless plan mode runs no command', async () => {
    const [bash, planBash, planWrite, planRead] = await Promise.all([
      verdictOf('bash'),
      verdictOf('-c', 'plan.config.json', 'bash'),
      verdictOf('-c', 'plan.config.json', 'write'),
      verdictOf('-c', 'plan.config.json', 'read'),
    ]);
    expect(bash).toMatchObject({ decision: 'depends', source: 'command' });
    expect(bash.reason).toContain('policy.commands');
    expect(planBash).toMatchObject({ decision: 'deny', source: 'mode' });
    expect(planBash.reason).toContain('plan mode');
    expect(planWrite).toMatchObject({ decision: 'deny', source: 'mode' });
    expect(planWrite.reason).toContain('leave plan mode');
    expect(planRead).toMatchObject({ decision: 'allow', source: 'read-only' });
  });

  it('prints the verdict as the last line of the text explanation', async () => {
    const [write, failing, bash] = await Promise.all(
      ['write', 'fixture__fail', 'bash'].map((tool) =>
        runCli(['policy', 'explain', tool], { cwd: dir.path }),
      ),
    );
    expect(write?.stdout.trimEnd().split('\n').at(-1)).toBe(
      '  a call gets: ASK: write has risk medium and the session is in default mode',
    );
    expect(failing?.stdout).toMatch(/a call gets: DENY: fixture__fail is not available to this agent/);
    expect(bash?.stdout).toMatch(/a call gets: depends on the command: the command rules decide/);
  });
});
