// @toolplane/sandbox/testing: everything exported here is public API (test helpers; needs vitest).
export { type ExecutorContractSubject, describeExecutorContract } from './executor-contract.js';
