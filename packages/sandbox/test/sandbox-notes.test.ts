import { afterAll, describe, expect, it } from 'vitest';
import { createBwrapExecutor, createDockerExecutor } from '../src/index.js';
import { sandboxNotes } from '../src/output/notes.js';
import { allowedSkip, bwrapProblem, dockerProblem, makeWorkspace } from './helpers/engines.js';

const workspace = makeWorkspace();
const limits = { pids: 32, memoryBytes: 64 * 1024 * 1024 };
const subjects = [
  {
    name: 'bwrap',
    skip: allowedSkip(bwrapProblem()),
    create: () => createBwrapExecutor({ workspace: workspace.path, limits }),
  },
  {
    name: 'docker',
    skip: allowedSkip(await dockerProblem()),
    create: () => createDockerExecutor({ workspace: workspace.path, limits }),
  },
];

const executors = subjects.map((subject) => (subject.skip === undefined ? subject.create() : undefined));

describe('notes on what the sandbox stopped', () => {
  afterAll(async () => {
    for (const executor of executors) await executor?.close();
    workspace.remove();
  });

  for (const [index, subject] of subjects.entries()) {
    describe.skipIf(subject.skip !== undefined)(subject.name, () => {
      const executor = executors[index];
      const run = (command: string, timeoutMs = 30_000) =>
        (executor as NonNullable<typeof executor>).start({
          command,
          cwd: workspace.path,
          env: {},
          timeoutMs,
          sandboxKey: 'notes',
        }).done;

      it('ends the result of a command killed by the memory limit with a line naming the limit', async () => {
        const result = await run('head -c 300m /dev/zero | sort > /dev/null');
        expect(result.exitCode).not.toBe(0);
        expect(result.notes?.some((note) => note.includes('64 MiB memory limit'))).toBe(true);
      });

      it('names the process limit when the command could not fork', async () => {
        const result = await run('for i in $(seq 1 80); do sleep 5 & done; wait', 20_000);
        expect(result.notes?.some((note) => note.includes('process limit (32)'))).toBe(true);
      });

      it('names the timeout', async () => {
        const result = await run('sleep 30', 500);
        expect(result.stderr.trimEnd().split('\n').at(-1)).toContain('500 ms timeout');
      });

      it('adds no note to a command that succeeded', async () => {
        const result = await run('echo fine');
        expect(result.notes).toBeUndefined();
        expect(result.stderr).toBe('');
      });
    });
  }

  it('tells no network apart from a refused host', () => {
    const base = {
      stdout: '',
      exitCode: 1,
      timedOut: false,
      timeoutMs: 1000,
      pidsLimit: 10,
      memoryBytes: undefined,
    };
    expect(sandboxNotes({ ...base, stderr: 'wget: bad address', networkNone: true })[0]).toContain(
      'no network',
    );
    expect(
      sandboxNotes({ ...base, stderr: 'x', networkNone: false, refusedHosts: ['evil.example'] })[0],
    ).toContain('refused evil.example');
  });
});
