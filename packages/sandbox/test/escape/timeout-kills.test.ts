import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Executor } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createBwrapExecutor, createDockerExecutor } from '../../src/index.js';
import { allowedSkip, bwrapProblem, dockerProblem, makeWorkspace } from '../helpers/engines.js';

const KILLS = 100;
const CONCURRENCY = 4;
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
const subjects: { name: string; skip: string | undefined; create: (workspace: string) => Executor }[] = [
  {
    name: 'bwrap',
    skip: allowedSkip(bwrapProblem()),
    create: (workspace) => createBwrapExecutor({ workspace }),
  },
  {
    name: 'docker',
    skip: allowedSkip(await dockerProblem()),
    create: (workspace) => createDockerExecutor({ workspace }),
  },
];

for (const subject of subjects) {
  describe.skipIf(subject.skip !== undefined)(`${subject.name} timeout kills`, () => {
    const workspace = makeWorkspace();
    const executor = subject.skip === undefined ? subject.create(workspace.path) : undefined;
    afterAll(async () => {
      await executor?.close?.();
      workspace.remove();
    });

    it(`leaves no process of ${KILLS} timed-out commands running`, async () => {
      const files = Array.from({ length: KILLS }, (_, index) => `ticks-${index}`);
      let next = 0;
      let timedOut = 0;
      const worker = async (): Promise<void> => {
        while (next < files.length) {
          const file = files[next++] as string;
          const ticker = `while :; do echo t >> ${file}; sleep 0.1; done`;
          const result = await (executor as Executor).start({
            // A child in the background, a setsid daemon, one with a cleared environment, and
            // the foreground sleep.
            command: `(${ticker}) & setsid sh -c '${ticker}' > /dev/null 2>&1 & setsid env -i /bin/sh -c '${ticker}' > /dev/null 2>&1 < /dev/null & sleep 60`,
            cwd: workspace.path,
            env: {},
            timeoutMs: 400,
            sandboxKey: 'timeout-kills',
          }).done;
          if (result.timedOut) timedOut++;
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      expect(timedOut).toBe(KILLS);
      const sizes = (): number[] =>
        files.map((file) =>
          existsSync(join(workspace.path, file)) ? statSync(join(workspace.path, file)).size : 0,
        );
      const before = sizes();
      await sleep(1000);
      const growing = sizes().filter((size, index) => size !== before[index]).length;
      expect(growing).toBe(0);
    });
  });
}
