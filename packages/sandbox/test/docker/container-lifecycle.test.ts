import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DockerExecutor, createDockerExecutor } from '../../src/index.js';
import { containersOf, docker, uniqueKey } from '../helpers/docker.js';
import { allowedSkip, dockerProblem, makeWorkspace } from '../helpers/engines.js';

const skip = allowedSkip(await dockerProblem());
const workspace = makeWorkspace();
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

describe.skipIf(skip !== undefined)('docker sandbox containers', () => {
  let executor: DockerExecutor;
  const run = (command: string, sandboxKey: string) =>
    executor.start({ command, cwd: workspace.path, env: {}, sandboxKey }).done;

  beforeAll(() => {
    executor = createDockerExecutor({ workspace: workspace.path });
  });
  afterAll(async () => {
    await executor.close();
    workspace.remove();
  });

  it('creates a container on the first command of a key, not before', async () => {
    const key = uniqueKey('lazy');
    expect(await containersOf(key)).toHaveLength(0);
    await run('true', key);
    expect(await containersOf(key)).toHaveLength(1);
  });

  it('reuses the container of a key: its /tmp and hostname persist between commands', async () => {
    const key = uniqueKey('reuse');
    const first = await run('hostname; echo kept > /tmp/state', key);
    const second = await run('hostname; cat /tmp/state', key);
    expect(second.stdout).toBe(`${first.stdout}kept\n`);
    expect(await containersOf(key)).toHaveLength(1);
  });

  it('gives concurrent first commands of one key one container', async () => {
    const key = uniqueKey('concurrent');
    const results = await Promise.all([run('hostname', key), run('hostname', key), run('hostname', key)]);
    expect(new Set(results.map((result) => result.stdout)).size).toBe(1);
    expect(await containersOf(key)).toHaveLength(1);
  });

  it("keeps two keys apart: neither sees the other one's /tmp", async () => {
    const one = uniqueKey('one');
    const two = uniqueKey('two');
    await run('echo mine > /tmp/secret', one);
    const other = await run('cat /tmp/secret 2>&1; hostname', two);
    expect(other.stdout).toContain('No such file');
    expect(await containersOf(one)).not.toEqual(await containersOf(two));
  });

  it('uses one default container for requests without a key', async () => {
    const first = await executor.start({ command: 'hostname', cwd: workspace.path, env: {} }).done;
    const second = await executor.start({ command: 'hostname', cwd: workspace.path, env: {} }).done;
    expect(first.stdout).toBe(second.stdout);
  });

  it('removes the container of a key on release, and makes a new one for its next command', async () => {
    const key = uniqueKey('release');
    const before = await run('hostname', key);
    await executor.release(key);
    expect(await containersOf(key)).toHaveLength(0);
    const after = await run('hostname', key);
    expect(after.stdout).not.toBe(before.stdout);
  });

  it('kills the running commands of a key on release', async () => {
    const key = uniqueKey('release-running');
    await run('true', key);
    const running = executor.start({ command: 'sleep 60', cwd: workspace.path, env: {}, sandboxKey: key });
    await sleep(300);
    await executor.release(key);
    const result = await running.done;
    expect(result.exitCode).not.toBe(0);
    expect(await containersOf(key)).toHaveLength(0);
  });

  it('labels its containers with their owner process', async () => {
    const key = uniqueKey('labels');
    await run('true', key);
    const [id] = await containersOf(key);
    const info = await docker.getContainer(id as string).inspect();
    expect(info.Config.Labels['dev.toolplane.sandbox']).toBe('1');
    expect(info.Config.Labels['dev.toolplane.sandbox.owner']).toContain(`:${process.pid}:`);
  });

  it('ends a command whose background process dropped its mark and holds its output open', async () => {
    const key = uniqueKey('held-output');
    // env -i strips the variable the in-container kill finds processes by; the sleep keeps
    // the exec's stdout open after the shell exits.
    const result = await run("env -i /bin/sh -c 'sleep 30' & echo shell-done", key);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'shell-done\n' });
    await executor.release(key);
  });

  it('removes every container on close', async () => {
    const own = createDockerExecutor({ workspace: workspace.path });
    const keys = [uniqueKey('close-a'), uniqueKey('close-b')];
    for (const key of keys)
      await own.start({ command: 'true', cwd: workspace.path, env: {}, sandboxKey: key }).done;
    expect(own.containerCount).toBe(2);
    await own.close();
    for (const key of keys) expect(await containersOf(key)).toHaveLength(0);
    await expect(own.start({ command: 'true', cwd: workspace.path, env: {} }).done).rejects.toMatchObject({
      details: { sandboxCode: 'SANDBOX_CLOSED' },
    });
  });

  it('removes a container idle past idleMs', async () => {
    const own = createDockerExecutor({ workspace: workspace.path, idleMs: 200 });
    const key = uniqueKey('idle');
    await own.start({ command: 'true', cwd: workspace.path, env: {}, sandboxKey: key }).done;
    let left = 1;
    for (let attempt = 0; attempt < 100 && left > 0; attempt++) {
      await sleep(100);
      left = (await containersOf(key)).length;
    }
    expect(left).toBe(0);
    expect(own.containerCount).toBe(0);
    await own.close();
  });

  it('does not reap a container while a command runs in it', async () => {
    const own = createDockerExecutor({ workspace: workspace.path, idleMs: 100 });
    const key = uniqueKey('busy');
    const result = await own.start({
      command: 'sleep 1; echo survived',
      cwd: workspace.path,
      env: {},
      sandboxKey: key,
    }).done;
    expect(result.stdout).toBe('survived\n');
    await own.close();
  });

  it('a new executor removes the containers a killed process left behind', async () => {
    const fixture = fileURLToPath(new URL('../fixtures/crashing-owner.mts', import.meta.url));
    const child = spawn(
      process.execPath,
      ['--conditions', '@toolplane/source', '--import', 'tsx', fixture, workspace.path],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const ready = await new Promise<string>((resolve) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\n')) resolve(text);
      });
      child.once('exit', () => resolve(text));
    });
    expect(ready).toBe('ready 0\n');
    expect(await containersOf('crashing')).not.toHaveLength(0);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const next = createDockerExecutor({ workspace: workspace.path });
    expect(await next.leftoversRemoved).toBeGreaterThanOrEqual(1);
    expect(await containersOf('crashing')).toHaveLength(0);
    await next.close();
  });
});
