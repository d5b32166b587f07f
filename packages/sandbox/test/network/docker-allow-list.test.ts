import { createDockerExecutor } from '../../src/index.js';
import { allowedSkip, dockerProblem } from '../helpers/engines.js';
import { describeNetworkAllowList } from '../helpers/network-allow-list.js';

describeNetworkAllowList('docker', allowedSkip(await dockerProblem()), (workspace, network) =>
  createDockerExecutor({ workspace, network }),
);
