// Benchmarks of @toolplane/sandbox. Run: pnpm --filter @toolplane/sandbox bench
// Baselines are measured in the same run: the raw bwrap command with the same jail, a raw
// dockerode exec in an identically hardened warm container, and a raw `docker run --rm`.
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { result, timeInterleaved } from '@toolplane/bench';
import { createHostExecutor } from '@toolplane/builtin-fs-shell';
import type { Executor } from '@toolplane/core';
import Docker from 'dockerode';
import { bwrapArguments } from '../src/bwrap/bwrap-arguments.js';
import { DEFAULT_SYSTEM_PATHS } from '../src/bwrap/bwrap-options.js';
import { containerSpec } from '../src/docker/container-spec.js';
import { ownerOf } from '../src/docker/labels.js';
import { ProtectedPlaceholders } from '../src/workspace/placeholders.js';
import {
  DEFAULT_DOCKER_IMAGE,
  DEFAULT_LIMITS,
  DEFAULT_PROTECTED_PATHS,
  createBwrapExecutor,
  createDockerExecutor,
} from '../src/index.js';
import { makeWorkspace } from '../test/helpers/engines.js';

const PACKAGE = 'sandbox';
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 15);
const SESSIONS = Number(process.env['BENCH_SESSIONS'] ?? 50);
const TEN_MB = 'head -c 10000000 /dev/zero';
const run = promisify(execFile);
const docker = new Docker();
const workspace = makeWorkspace();
const ms = (us: number): number => us / 1000;

const command =
  (executor: Executor, line: string, sandboxKey = 'bench') =>
  () =>
    executor.start({
      command: line,
      cwd: workspace.path,
      env: { PATH: process.env['PATH'] ?? '' },
      sandboxKey,
    }).done;

/**
 * The raw bwrap command: the same jail as the executor's (its protected paths' placeholders
 * included, acquired and given back per command as the executor does), as the same
 * unprivileged user, without the executor's cgroup, output capture and notes.
 */
function rawBwrap(line: string): () => Promise<void> {
  const placeholders = new ProtectedPlaceholders(workspace.path, DEFAULT_PROTECTED_PATHS);
  return () =>
    new Promise<void>((resolve, reject) => {
      const layout = placeholders.acquire();
      const jail = bwrapArguments({
        workspace: workspace.path,
        workingDir: '/workspace',
        systemPaths: DEFAULT_SYSTEM_PATHS,
        protectedMounts: layout.mounts,
        tmpBytes: DEFAULT_LIMITS.tmpBytes,
        uid: 65534,
        gid: 65534,
      });
      const argv = [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        'bwrap',
        ...jail,
        '--',
        '/bin/sh',
        '-c',
        line,
      ];
      const child = spawn('setpriv', argv, { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.resume();
      child.stderr.resume();
      child.once('error', reject);
      child.once('close', () => {
        layout.release();
        resolve();
      });
    });
}

/** A raw dockerode exec (stdout and stderr demultiplexed, exit code from inspect). */
function rawExec(container: Docker.Container, line: string): () => Promise<void> {
  return async () => {
    const exec = await container.exec({
      Cmd: ['/bin/sh', '-c', line],
      AttachStdout: true,
      AttachStderr: true,
      User: '65534:65534',
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    const out = new PassThrough();
    const err = new PassThrough();
    out.resume();
    err.resume();
    docker.modem.demuxStream(stream, out, err);
    await new Promise((resolve) => stream.once('end', resolve));
    for (let attempt = 0; attempt < 50 && (await exec.inspect()).Running; attempt++)
      await new Promise((r) => setTimeout(r, 5));
  };
}

function report(name: string, value: number, baseline?: { name: string; value: number }): void {
  result(
    `${PACKAGE}/${name}`,
    ms(value),
    'ms',
    baseline ? { baseline: baseline.name, ratio: value / baseline.value } : undefined,
  );
}

async function main(): Promise<void> {
  const host = createHostExecutor();
  const bwrap = createBwrapExecutor({ workspace: workspace.path });
  const sandbox = createDockerExecutor({ workspace: workspace.path });
  await command(sandbox, 'true')();
  const spec = containerSpec({
    image: DEFAULT_DOCKER_IMAGE,
    workspace: workspace.path,
    protectedMounts: [],
    limits: DEFAULT_LIMITS,
    hardening: {},
    owner: ownerOf(),
    keyLabel: 'bench-raw',
  });
  const raw = await docker.createContainer(spec);
  await raw.start();
  try {
    const small = await timeInterleaved(
      {
        host: { fn: command(host, 'true'), batch: 5 },
        bwrap: { fn: command(bwrap, 'true'), batch: 5 },
        rawBwrap: { fn: rawBwrap('true'), batch: 5 },
        docker: { fn: command(sandbox, 'true'), batch: 3 },
        rawExec: { fn: rawExec(raw, 'true'), batch: 3 },
      },
      { rounds: ROUNDS, warmupRounds: 2 },
    );
    const big = await timeInterleaved(
      {
        host: { fn: command(host, TEN_MB), batch: 2 },
        bwrap: { fn: command(bwrap, TEN_MB), batch: 2 },
        rawBwrap: { fn: rawBwrap(TEN_MB), batch: 2 },
        docker: { fn: command(sandbox, TEN_MB), batch: 2 },
        rawExec: { fn: rawExec(raw, TEN_MB), batch: 2 },
      },
      { rounds: ROUNDS, warmupRounds: 2 },
    );
    for (const [label, stats] of [
      ['true', small],
      ['10mb', big],
    ] as const) {
      const m = (name: string): number => (stats[name] as { medianUs: number }).medianUs;
      report(`host-${label}`, m('host'));
      report(`bwrap-${label}`, m('bwrap'), { name: 'raw-bwrap', value: m('rawBwrap') });
      report(`docker-warm-${label}`, m('docker'), { name: 'raw-dockerode-exec', value: m('rawExec') });
    }

    // The first command of a new session (create + start + exec) beside `docker run --rm`.
    const flags = [
      '--network',
      'none',
      '--read-only',
      '--tmpfs',
      '/tmp',
      '--cap-drop',
      'ALL',
      '--security-opt',
      'no-new-privileges',
    ];
    flags.push(
      '--pids-limit',
      '256',
      '--memory',
      '512m',
      '--memory-swap',
      '512m',
      '--user',
      '65534:65534',
      '--init',
    );
    flags.push('-v', `${workspace.path}:/workspace`, '-w', '/workspace');
    let session = 0;
    const placeholders = new ProtectedPlaceholders(workspace.path, DEFAULT_PROTECTED_PATHS);
    const first = await timeInterleaved(
      {
        sandbox: {
          fn: async () => {
            const key = `first-${session++}`;
            await command(sandbox, 'true', key)();
            await sandbox.release(key);
          },
          batch: 1,
        },
        dockerRun: {
          fn: async () => {
            // The same mounts as the executor's containers: the protected paths' placeholders.
            const layout = placeholders.acquire();
            const mounts = layout.mounts.flatMap((mount) => [
              '--mount',
              `type=bind,src=${mount.hostPath},dst=/workspace/${mount.relative},readonly`,
            ]);
            try {
              await run('docker', ['run', '--rm', ...flags, ...mounts, DEFAULT_DOCKER_IMAGE, 'true']);
            } finally {
              layout.release();
            }
          },
          batch: 1,
        },
      },
      { rounds: Math.max(3, Math.floor(ROUNDS / 3)), warmupRounds: 1 },
    );
    report('first-command', (first['sandbox'] as { medianUs: number }).medianUs, {
      name: 'docker-run-rm',
      value: (first['dockerRun'] as { medianUs: number }).medianUs,
    });

    // Memory of idle sessions: what the containers' cgroups hold once each ran one command.
    const keys = Array.from({ length: SESSIONS }, (_, index) => `idle-${index}`);
    for (const key of keys) await command(sandbox, 'true', key)();
    const list = await docker.listContainers({
      filters: { label: [`dev.toolplane.sandbox.owner=${ownerOf()}`] },
    });
    let bytes = 0;
    for (const info of list) {
      try {
        bytes += Number(
          readFileSync(`/sys/fs/cgroup/memory/docker/${info.Id}/memory.usage_in_bytes`, 'utf8'),
        );
      } catch {
        try {
          bytes += Number(
            readFileSync(`/sys/fs/cgroup/system.slice/docker-${info.Id}.scope/memory.current`, 'utf8'),
          );
        } catch {
          // not readable here
        }
      }
    }
    result(`${PACKAGE}/idle-sessions-memory`, bytes / (1024 * 1024), `MiB for ${list.length} containers`);
  } finally {
    await raw.remove({ force: true });
    await sandbox.close();
    await bwrap.close();
    await host.close?.();
    workspace.remove();
  }
}

await main();
