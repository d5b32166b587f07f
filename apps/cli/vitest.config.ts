import { toolplaneVitestConfig } from '@toolplane/vitest-config';

// Every test starts the built binary (and often MCP servers) several times; on a shared,
// loaded machine one test can take tens of seconds, so the timeouts are generous.
export default toolplaneVitestConfig({ test: { testTimeout: 180_000, hookTimeout: 60_000 } });
