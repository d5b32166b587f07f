import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Executor } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBwrapExecutor, createDockerExecutor } from '../../src/index.js';
import { allowedSkip, bwrapProblem, dockerProblem, makeWorkspace } from '../helpers/engines.js';
import { PROBES, PROTECTED_FILES, type ProbeWorld } from './probes.js';

const limits = { pids: 64, memoryBytes: 128 * 1024 * 1024 };
const subjects: { name: string; skip: string | undefined; create: (workspace: string) => Executor }[] = [
  {
    name: 'bwrap',
    skip: allowedSkip(bwrapProblem()),
    create: (workspace) => createBwrapExecutor({ workspace, limits }),
  },
  {
    name: 'docker',
    skip: allowedSkip(await dockerProblem()),
    create: (workspace) => createDockerExecutor({ workspace, limits }),
  },
];

function hostAddress(): string {
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) if (entry.family === 'IPv4' && !entry.internal) return entry.address;
  }
  return '127.0.0.1';
}

for (const subject of subjects) {
  describe.skipIf(subject.skip !== undefined)(`${subject.name} sandbox escape probes`, () => {
    const hits: string[] = [];
    let server: Server;
    let executor: Executor;
    let world: ProbeWorld;
    const workspace = makeWorkspace();
    const outside = mkdtempSync(join(tmpdir(), 'toolplane-outside-'));
    const host = spawn('sleep', ['300', `${randomBytes(4).readUInt32BE()}`], { stdio: 'ignore' });

    beforeAll(async () => {
      chmodSync(outside, 0o777);
      const canary = `canary-${randomBytes(8).toString('hex')}`;
      writeFileSync(join(outside, 'secret'), `${canary}\n`, { mode: 0o644 });
      for (const [relative, content] of Object.entries(PROTECTED_FILES)) {
        mkdirSync(dirname(join(workspace.path, relative)), { recursive: true });
        writeFileSync(join(workspace.path, relative), content);
      }
      symlinkSync(join(outside, 'secret'), join(workspace.path, 'planted-read-link'));
      symlinkSync(join(outside, 'target'), join(workspace.path, 'planted-write-link'));
      server = createServer((request, response) => {
        hits.push(request.url ?? '');
        response.end('reached');
      });
      await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
      executor = subject.create(workspace.path);
      world = {
        workspace: workspace.path,
        outside,
        canary,
        hostAddress: hostAddress(),
        port: (server.address() as AddressInfo).port,
        hits,
        hostPid: host.pid as number,
        hostMarker: host.spawnargs[2] as string,
        original: PROTECTED_FILES,
      };
    });
    afterAll(async () => {
      await executor?.close?.();
      host.kill('SIGKILL');
      await new Promise<void>((resolve) => server.close(() => resolve()));
      workspace.remove();
      rmSync(outside, { recursive: true, force: true });
    });

    it(`has at least 40 probes`, () => {
      expect(PROBES.length).toBeGreaterThanOrEqual(40);
    });

    it.each(PROBES.map((probe) => [probe.name, probe] as const))('stops: %s', async (_name, probe) => {
      const result = await executor.start({
        command: probe.command(world),
        cwd: workspace.path,
        env: {},
        timeoutMs: probe.timeoutMs ?? 10_000,
        sandboxKey: 'escape',
      }).done;
      expect(await probe.escaped(result, world), `${result.stdout}\n${result.stderr}`).toBe(false);
    });
  });
}
