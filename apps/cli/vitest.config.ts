import { toolplaneVitestConfig } from '@toolplane/vitest-config';

// Every test starts the built binary (and often MCP servers) several times; on a shared,
// loaded machine one test can take tens of seconds, so the timeouts are generous.
// The files are independent (each has its own temporary directory, servers on port 0), and
// their time is spent waiting for child processes, so three run at once (vitest's default on
// two cores is one at a time).
export default toolplaneVitestConfig({
  test: { testTimeout: 180_000, hookTimeout: 60_000, maxWorkers: 3 },
});
