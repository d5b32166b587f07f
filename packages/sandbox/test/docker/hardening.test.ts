import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROTECTED_PATHS, createDockerExecutor } from '../../src/index.js';
import { containersOf, docker, uniqueKey } from '../helpers/docker.js';
import { allowedSkip, dockerProblem, makeWorkspace } from '../helpers/engines.js';

const skip = allowedSkip(await dockerProblem());
const workspace = makeWorkspace();
mkdirSync(join(workspace.path, '.git', 'hooks'), { recursive: true });
writeFileSync(join(workspace.path, '.git', 'config'), '[core]\n');
writeFileSync(join(workspace.path, '.mcp.json'), '{}\n');

async function inspectFor(options: Parameters<typeof createDockerExecutor>[0]) {
  const executor = createDockerExecutor(options);
  const key = uniqueKey('hardening');
  await executor.start({ command: 'true', cwd: workspace.path, env: {}, sandboxKey: key }).done;
  const [id] = await containersOf(key);
  const info = await docker.getContainer(id as string).inspect();
  await executor.close();
  return info;
}

describe.skipIf(skip !== undefined)('docker sandbox hardening', () => {
  afterAll(() => workspace.remove());

  it('creates containers hardened by default', async () => {
    const info = await inspectFor({ workspace: workspace.path });
    const host = info.HostConfig;
    expect(host.NetworkMode).toBe('none');
    expect(host.ReadonlyRootfs).toBe(true);
    expect(host.CapDrop).toEqual(['ALL']);
    expect(host.CapAdd ?? []).toEqual([]);
    expect(host.SecurityOpt).toEqual(['no-new-privileges']);
    expect(host.Privileged).toBe(false);
    expect(host.PidsLimit).toBe(256);
    expect(host.Memory).toBe(512 * 1024 * 1024);
    expect(host.MemorySwap).toBe(host.Memory);
    expect(host.NanoCpus).toBe(1e9);
    expect(info.Config.User).toBe('65534:65534');
    expect(Object.keys(host.Tmpfs ?? {})).toEqual(['/tmp']);
  });

  it('mounts the workspace read-write and the protected paths read-only over it, never a Docker socket', async () => {
    const info = await inspectFor({ workspace: workspace.path });
    const mounts = Object.fromEntries(info.Mounts.map((mount) => [mount.Destination, mount.RW]));
    // Absent protected paths get an empty read-only placeholder, so no command can create them.
    const absent = DEFAULT_PROTECTED_PATHS.filter(
      (path) => !['.git/hooks', '.git/config', '.mcp.json'].includes(path),
    );
    expect(mounts).toEqual({
      '/workspace': true,
      '/workspace/.git': true,
      '/workspace/.git/hooks': false,
      '/workspace/.git/config': false,
      '/workspace/.mcp.json': false,
      ...Object.fromEntries(absent.map((path) => [`/workspace/${path}`, false])),
    });
    expect(info.Mounts.some((mount) => /docker\.sock/.test(mount.Source))).toBe(false);
  });

  it('removes the placeholders of absent protected paths with the last container', async () => {
    const executor = createDockerExecutor({ workspace: workspace.path, removeLeftovers: false });
    const request = { command: 'true', cwd: workspace.path, env: {} };
    await executor.start({ ...request, sandboxKey: uniqueKey('placeholder-a') }).done;
    const second = uniqueKey('placeholder-b');
    await executor.start({ ...request, sandboxKey: second }).done;
    expect(readdirSync(workspace.path)).toContain('.bashrc');
    await executor.release(second);
    expect(readdirSync(workspace.path)).toContain('.bashrc');
    await executor.close();
    expect(readdirSync(workspace.path).sort()).toEqual(['.git', '.mcp.json']);
  });

  it('applies overridden limits and hardening', async () => {
    const info = await inspectFor({
      workspace: workspace.path,
      limits: { pids: 99, memoryBytes: 200 * 1024 * 1024, cpus: 0.5 },
      hardening: { readOnlyRoot: false, user: '1000:1000', noNewPrivileges: false, capabilities: ['CHOWN'] },
    });
    expect(info.HostConfig.PidsLimit).toBe(99);
    expect(info.HostConfig.Memory).toBe(200 * 1024 * 1024);
    expect(info.HostConfig.MemorySwap).toBe(200 * 1024 * 1024);
    expect(info.HostConfig.NanoCpus).toBe(5e8);
    expect(info.HostConfig.ReadonlyRootfs).toBe(false);
    expect(info.HostConfig.CapAdd).toEqual(['CHOWN']);
    expect(info.Config.User).toBe('1000:1000');
  });
});
