import { toolplaneVitestConfig } from '@toolplane/vitest-config';

// The files are independent (each has its own temporary directory, unique process tags, servers
// on port 0) and most of their time is spent waiting for child processes and servers, so three
// run at once (vitest's default on two cores is one at a time).
export default toolplaneVitestConfig({ test: { maxWorkers: 3 } });
