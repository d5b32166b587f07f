import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ContainerPool } from '../../src/docker/container-pool.js';
import { KEY_LABEL, OWNER_LABEL, SANDBOX_LABEL, ownerOf } from '../../src/docker/labels.js';
import { docker, uniqueKey } from '../helpers/docker.js';
import { allowedSkip, dockerProblem, makeWorkspace } from '../helpers/engines.js';

const skip = allowedSkip(await dockerProblem());
const workspace = makeWorkspace();

/** Create options of a container that bind-mounts `source` read-only at /protected. */
function optionsWith(source: string, label: string) {
  return {
    Image: 'toolplane-sandbox:busybox',
    Cmd: ['sleep', '3600'],
    Labels: { [SANDBOX_LABEL]: '1', [OWNER_LABEL]: ownerOf(), [KEY_LABEL]: label },
    HostConfig: { Mounts: [{ Type: 'bind' as const, Source: source, Target: '/protected', ReadOnly: true }] },
  };
}

describe.skipIf(skip !== undefined)(
  'a protected path removed by another process before the container is created',
  () => {
    afterAll(() => workspace.remove());

    it('is looked up again and the container created, and the first spec is given back', async () => {
      const present = join(workspace.path, 'present');
      mkdirSync(present);
      const released: string[] = [];
      const specs: string[] = [];
      const pool = new ContainerPool({
        docker,
        image: 'toolplane-sandbox:busybox',
        idleMs: 0,
        spec: (label) => {
          // the first layout names a placeholder another process has removed meanwhile
          const source = specs.length === 0 ? join(workspace.path, 'vanished') : present;
          specs.push(source);
          return { options: optionsWith(source, label), release: () => released.push(source) };
        },
      });
      try {
        const box = await pool.acquire(uniqueKey('vanished'));
        const info = await box.container.inspect();
        expect(info.State.Running).toBe(true);
        expect(info.Mounts.map((mount) => mount.Source)).toEqual([present]);
        expect(specs).toEqual([join(workspace.path, 'vanished'), present]);
        expect(released).toEqual([join(workspace.path, 'vanished')]);
      } finally {
        await pool.close();
      }
      expect(released).toEqual([join(workspace.path, 'vanished'), present]);
    });

    it('fails with the engine error when the source is missing every time, after bounded attempts', async () => {
      let specs = 0;
      const pool = new ContainerPool({
        docker,
        image: 'toolplane-sandbox:busybox',
        idleMs: 0,
        spec: (label) => {
          specs++;
          return { options: optionsWith(join(workspace.path, 'never-there'), label) };
        },
      });
      try {
        await expect(pool.acquire(uniqueKey('never'))).rejects.toThrow(/bind source path does not exist/);
        expect(specs).toBe(3);
      } finally {
        await pool.close();
      }
    });
  },
);
