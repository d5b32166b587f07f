import type { McpAuth } from '@toolplane/mcp-provider';

/** The OAuth settings of the CLI: the token file under the user's config directory. */
export async function cliAuth(env: NodeJS.ProcessEnv = process.env): Promise<McpAuth> {
  const { createFileTokenStore, createMcpAuth, defaultTokenFilePath } = await import(
    '@toolplane/mcp-provider'
  );
  return createMcpAuth({ store: createFileTokenStore({ path: defaultTokenFilePath(env) }) });
}
