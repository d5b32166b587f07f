import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAllowList, createPinStore } from '../src/index.js';

// The stores write a temporary file, then rename it over the JSON file. A write that fails (a
// full disk, a directory where the file should be) must not leave its temporary file behind:
// there would be one more for every failed allow-always answer or pin.

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'policy-store-temp-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** A directory where the store's file should be: every rename onto it fails. */
async function blockedPath(name: string): Promise<string> {
  const path = join(directory, name);
  await mkdir(path);
  await writeFile(join(path, 'keep'), 'a directory in the way');
  return path;
}

describe('stores whose file cannot be replaced', () => {
  it('leave no temporary file after failed allow-list and pin writes', async () => {
    const allowList = createAllowList({ path: await blockedPath('allow-list.json') });
    const pins = createPinStore({ path: await blockedPath('pins.json') });
    for (let i = 0; i < 20; i++) {
      await expect(allowList.addCommands([`make target${i} *`])).rejects.toThrow();
      await expect(pins.pin(`tool${i}`, 'f'.repeat(64))).rejects.toThrow();
    }
    expect((await readdir(directory)).sort()).toEqual(['allow-list.json', 'pins.json']);
    // What could not be written is still known in memory.
    expect(allowList.snapshot().commands).toHaveLength(20);
  });
});
