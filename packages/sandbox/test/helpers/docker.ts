import Docker from 'dockerode';
import { KEY_LABEL, SANDBOX_LABEL, keyLabel } from '../../src/docker/labels.js';

export const docker = new Docker();

/** The ids of the sandbox containers of `key` that exist now (running or not). */
export async function containersOf(key: string): Promise<string[]> {
  const list = await docker.listContainers({
    all: true,
    filters: { label: [`${KEY_LABEL}=${keyLabel(key)}`] },
  });
  return list.map((info) => info.Id);
}

/** Every sandbox container on the engine. */
export async function allSandboxContainers(): Promise<string[]> {
  const list = await docker.listContainers({ all: true, filters: { label: [SANDBOX_LABEL] } });
  return list.map((info) => info.Id);
}

/** A key no other test uses. */
export function uniqueKey(stem: string): string {
  return `${stem}-${process.pid}-${Math.random().toString(36).slice(2)}`;
}
