import { createHostExecutor } from '@toolplane/builtin-fs-shell';
import { afterAll } from 'vitest';
import { createBwrapExecutor, createDockerExecutor } from '../src/index.js';
import { describeExecutorContract } from '../src/testing/index.js';
import { allowedSkip, bwrapProblem, dockerProblem, makeWorkspace } from './helpers/engines.js';

const PASSED = 'TOOLPLANE_CONTRACT_VALUE';
const workspaces = [makeWorkspace(), makeWorkspace(), makeWorkspace()] as const;
afterAll(() => {
  for (const workspace of workspaces) workspace.remove();
});

describeExecutorContract('host', {
  create: () => createHostExecutor(),
  workspace: workspaces[0].path,
  passedVariable: PASSED,
});

const bwrapSkip = allowedSkip(bwrapProblem());
describeExecutorContract('bwrap', {
  create: () => createBwrapExecutor({ workspace: workspaces[1].path, envAllowList: [PASSED] }),
  workspace: workspaces[1].path,
  passedVariable: PASSED,
  ...(bwrapSkip === undefined ? {} : { skip: bwrapSkip }),
});

const dockerSkip = allowedSkip(await dockerProblem());
describeExecutorContract('docker', {
  create: () => createDockerExecutor({ workspace: workspaces[2].path, envAllowList: [PASSED] }),
  workspace: workspaces[2].path,
  passedVariable: PASSED,
  ...(dockerSkip === undefined ? {} : { skip: dockerSkip }),
});
