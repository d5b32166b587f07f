import { createBwrapExecutor } from '../../src/index.js';
import { allowedSkip, bwrapProblem } from '../helpers/engines.js';
import { describeNetworkAllowList } from '../helpers/network-allow-list.js';

describeNetworkAllowList('bwrap', allowedSkip(bwrapProblem()), (workspace, network) =>
  createBwrapExecutor({ workspace, network }),
);
