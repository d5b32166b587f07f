import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ToolError } from '@toolplane/core';

/** Reads a JSON file; a missing file gives `fallback`, a broken one throws `CONFIG_INVALID`. */
export async function readJsonFile<T>(path: string, fallback: T): Promise<T> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw new ToolError('CONFIG_INVALID', `cannot read ${path}; check its permissions`, { cause: error });
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new ToolError('CONFIG_INVALID', `${path} is not valid JSON; fix or delete it`, { cause: error });
  }
}

let sequence = 0;

/**
 * Writes JSON atomically (temporary file, then rename), creating the directory. A write that
 * fails removes its temporary file (a full disk must not leave one per failed write).
 */
export async function writeJsonFile(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  sequence++;
  const temporary = `${path}.${process.pid}.${sequence}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`, 'utf8');
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** Runs async updates one after another (a write never overtakes an earlier one). */
export function createSerialQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}
