// @toolplane/mcp-provider/stdio: everything exported here is public API (Node-only process code).
export { openStdioSession, ledgerFor } from './connect.js';
export { serverEnvironment } from './environment.js';
export { guardedProcessTreeCount } from './exit-guard.js';
export { type LedgerEntry, ProcessLedger, defaultRunDirectory } from './ledger.js';
export {
  MARKER_VARIABLE,
  type ProcessTreeTarget,
  killMarkedSync,
  killProcessTree,
  killProcessTreesSync,
} from './process-tree.js';
export { type StdioTransportOptions, StdioProcessTransport } from './transport.js';
