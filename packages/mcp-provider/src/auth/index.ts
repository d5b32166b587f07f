export {
  AUTH_REQUIRED,
  type AuthRequiredFailure,
  authRequiredError,
  isAuthRequired,
} from './auth-required.js';
export { createFileTokenStore } from './file-token-store.js';
export {
  type McpLoginOptions,
  type McpLoginResult,
  type McpAuthRedirect,
  loginMcpServer,
  logoutMcpServer,
} from './login.js';
export { type McpAuth, type McpAuthOptions, createMcpAuth } from './mcp-auth.js';
export { type McpAuthState, mcpAuthStatus } from './status.js';
export { defaultTokenFilePath } from './token-file-path.js';
export {
  type McpAuthRecord,
  type McpStoredTokens,
  type McpTokenStore,
  createMemoryTokenStore,
} from './token-store.js';
