import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The default token file: `$TOOLPLANE_TOKEN_FILE`, else `$XDG_CONFIG_HOME/toolplane/mcp-tokens.json`,
 * else `~/.config/toolplane/mcp-tokens.json`.
 */
export function defaultTokenFilePath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TOOLPLANE_TOKEN_FILE) return env.TOOLPLANE_TOKEN_FILE;
  const base = env.XDG_CONFIG_HOME ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'toolplane', 'mcp-tokens.json');
}
