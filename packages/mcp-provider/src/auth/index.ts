export {
  AUTH_REQUIRED,
  type AuthRequiredFailure,
  authRequiredError,
  isAuthRequired,
} from './auth-required.js';
export { createFileTokenStore } from './file-token-store.js';
export { type McpLoginOptions, type McpLoginResult, loginMcpServer, logoutMcpServer } from './login.js';
export {
  type McpAuthRedirect,
  type McpLoginBeginOptions,
  type McpLoginCompleteOptions,
  type McpLoginStart,
  type McpPendingLogin,
  beginMcpLogin,
  completeMcpLogin,
} from './login-steps.js';
export { type McpAuth, type McpAuthOptions, createMcpAuth } from './mcp-auth.js';
export { type McpAuthState, mcpAuthStatus } from './status.js';
export { defaultTokenFilePath } from './token-file-path.js';
export {
  type McpAuthRecord,
  type McpStoredTokens,
  type McpTokenStore,
  createMemoryTokenStore,
} from './token-store.js';
