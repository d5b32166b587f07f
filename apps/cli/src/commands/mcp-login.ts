import { loadConfig } from '../config/load.js';
import { cliAuth } from '../auth/cli-auth.js';
import { listenForRedirect } from '../auth/loopback-redirect.js';
import { browserAvailable, openBrowser } from '../auth/open-browser.js';
import { type CommandContext, writeJson, writeLine } from '../context.js';
import { CliError, EXIT_CODES, configError, usageError } from '../output/cli-error.js';
import { terminalLine } from '../output/terminal-text.js';
import { mcpLoadOptions } from '../config/mcp-load-options.js';

const DEFAULT_TIMEOUT_S = 300;

interface LoginFlags {
  readonly clientId?: string;
  readonly clientSecretEnv?: string;
  readonly scope?: string;
  readonly timeout?: string;
  readonly browser?: boolean;
  readonly json?: boolean;
}

/** The URL of remote server `name` of the config, or a usage error naming the servers there are. */
async function remoteUrl(context: CommandContext, name: string): Promise<string> {
  const loaded = await loadConfig(context.cwd, context.configPath);
  if (!loaded.mcpDocument)
    throw configError('the config names no MCP servers', 'add an mcpServers entry with a url');
  const { loadMcpConfig } = await import('@toolplane/mcp-provider');
  const mcp = await loadMcpConfig(loaded.mcpDocument, mcpLoadOptions(loaded.mcpDocument, loaded.directory));
  const server = Object.hasOwn(mcp.servers, name) ? mcp.servers[name] : undefined;
  const remote = Object.entries(mcp.servers)
    .filter(([, config]) => config.type !== 'stdio')
    .map(([key]) => key);
  if (!server) {
    throw usageError(
      `no MCP server "${name}" in the config`,
      remote.length ? `remote servers: ${remote.join(', ')}` : 'the config has no remote servers',
    );
  }
  if (server.type === 'stdio' || server.type === 'websocket' || !('url' in server))
    throw usageError(
      `MCP server "${name}" is not an HTTP server: only http and sse servers log in with OAuth`,
    );
  return server.url;
}

function timeoutMs(flag: string | undefined): number {
  if (flag === undefined) return DEFAULT_TIMEOUT_S * 1000;
  const seconds = Number(flag);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600)
    throw usageError(`--timeout ${flag} is not a whole number of seconds from 1 to 3600`);
  return seconds * 1000;
}

/** `toolplane mcp login <server>`: the OAuth login of a remote server; tokens go to the token file. */
export async function mcpLogin(context: CommandContext, name: string, flags: LoginFlags): Promise<number> {
  const serverUrl = await remoteUrl(context, name);
  const wait = timeoutMs(flags.timeout);
  let client: { client_id: string; client_secret?: string } | undefined;
  if (flags.clientId) {
    const secret = flags.clientSecretEnv ? process.env[flags.clientSecretEnv] : undefined;
    if (flags.clientSecretEnv && !secret)
      throw usageError(`--client-secret-env ${flags.clientSecretEnv}: that variable is not set`);
    client = { client_id: flags.clientId, ...(secret ? { client_secret: secret } : {}) };
  } else if (flags.clientSecretEnv) {
    throw usageError('--client-secret-env needs --client-id');
  }
  const auth = await cliAuth();
  const { loginMcpServer } = await import('@toolplane/mcp-provider');
  const listener = await listenForRedirect(wait);
  try {
    const result = await loginMcpServer({
      auth,
      server: name,
      serverUrl,
      redirectUrl: listener.redirectUrl,
      ...(client ? { client } : {}),
      ...(flags.scope ? { scope: flags.scope } : {}),
      onAuthorizationUrl: (url) => {
        writeLine(context.stderr, `Open this URL to log in to ${terminalLine(name)}:`);
        writeLine(context.stderr, `  ${url.href}`);
        writeLine(context.stderr, `Waiting for the redirect to ${listener.redirectUrl} ...`);
        if (flags.browser !== false && browserAvailable()) openBrowser(url.href);
      },
      waitForRedirect: () => listener.wait(),
    });
    if (flags.json) writeJson(context.stdout, { ok: true, server: name, loginRequired: result.required });
    else if (!result.required)
      writeLine(context.stdout, `${terminalLine(name)} answered without asking for a login: nothing stored`);
    else
      writeLine(
        context.stdout,
        `Logged in to ${terminalLine(name)}; tokens saved to the toolplane token file`,
      );
    return EXIT_CODES.ok;
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as { code?: unknown }).code;
    throw new CliError(`login to ${name} failed: ${(error as Error).message}`, {
      exitCode: EXIT_CODES.toolError,
      code: code === 'TIMEOUT' || code === 'DENIED' || code === 'CONFIG_INVALID' ? code : 'EXECUTION_FAILED',
      hint: `run \`toolplane mcp login ${name}\` again`,
      cause: error,
    });
  } finally {
    await listener.close();
  }
}

/** `toolplane mcp logout <server>`: forgets the server's tokens and registered client. */
export async function mcpLogout(
  context: CommandContext,
  name: string,
  flags: { json?: boolean },
): Promise<number> {
  const auth = await cliAuth();
  const { logoutMcpServer } = await import('@toolplane/mcp-provider');
  const had = await logoutMcpServer(auth, name);
  if (flags.json) writeJson(context.stdout, { ok: true, server: name, removed: had });
  else
    writeLine(
      context.stdout,
      had ? `Logged out of ${terminalLine(name)}` : `No login stored for ${terminalLine(name)}`,
    );
  return EXIT_CODES.ok;
}
