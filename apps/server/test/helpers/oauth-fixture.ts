import { createHash, randomBytes } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** What the fixture served, for tests to count. */
export interface OAuthFixtureCounts {
  registrations: number;
  codeExchanges: number;
  refreshes: number;
  mcpRequests: number;
  /** MCP sessions opened (`initialize` requests with a valid token). */
  initializes: number;
}

/**
 * An OAuth authorization server and an MCP server it protects, on one 127.0.0.1 port. The
 * authorization endpoint plays the login page: the query's `user` is who logs in. Each access
 * token belongs to that user, and the `whoami` tool answers the user of the token it was sent
 * (and echoes the token itself, which the toolplane server must scrub).
 */
export interface OAuthFixture {
  readonly origin: string;
  readonly mcpUrl: string;
  readonly counts: OAuthFixtureCounts;
  /** Every access and refresh token issued so far. */
  readonly issued: readonly string[];
  /** The users whose tokens MCP requests carried, in order. */
  readonly seenUsers: readonly string[];
  /** Every access token stops working; refresh tokens still work. */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

const token = (): string => randomBytes(24).toString('base64url');

function reply(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

interface Code {
  readonly clientId: string;
  readonly challenge: string;
  readonly redirectUri: string;
  readonly user: string;
}

/** Starts the fixture on a free loopback port. */
export async function startOAuthFixture(): Promise<OAuthFixture> {
  const clients = new Map<string, readonly string[]>();
  const codes = new Map<string, Code>();
  const access = new Map<string, string>();
  const refresh = new Map<string, { user: string; clientId: string }>();
  const issued: string[] = [];
  const seenUsers: string[] = [];
  const counts: OAuthFixtureCounts = {
    registrations: 0,
    codeExchanges: 0,
    refreshes: 0,
    mcpRequests: 0,
    initializes: 0,
  };
  let origin = '';

  const issue = (res: ServerResponse, user: string, clientId: string): void => {
    const accessToken = token();
    const refreshToken = token();
    issued.push(accessToken, refreshToken);
    access.set(accessToken, user);
    refresh.set(refreshToken, { user, clientId });
    reply(res, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: refreshToken,
      scope: 'mcp:tools',
    });
  };

  const handleToken = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const form = new URLSearchParams(await readText(req));
    const clientId = form.get('client_id') ?? '';
    if (!clients.has(clientId)) return reply(res, 401, { error: 'invalid_client' });
    if (form.get('grant_type') === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const challenge = createHash('sha256')
        .update(form.get('code_verifier') ?? '')
        .digest('base64url');
      if (
        !code ||
        code.clientId !== clientId ||
        code.challenge !== challenge ||
        code.redirectUri !== form.get('redirect_uri')
      )
        return reply(res, 400, { error: 'invalid_grant' });
      counts.codeExchanges++;
      return issue(res, code.user, clientId);
    }
    if (form.get('grant_type') === 'refresh_token') {
      const grant = refresh.get(form.get('refresh_token') ?? '');
      if (!grant || grant.clientId !== clientId) return reply(res, 400, { error: 'invalid_grant' });
      refresh.delete(form.get('refresh_token') ?? '');
      counts.refreshes++;
      return issue(res, grant.user, clientId);
    }
    reply(res, 400, { error: 'unsupported_grant_type' });
  };

  const handleAuthorize = (url: URL, res: ServerResponse): void => {
    const clientId = url.searchParams.get('client_id') ?? '';
    const redirectUri = url.searchParams.get('redirect_uri') ?? '';
    if (
      !clients.get(clientId)?.includes(redirectUri) ||
      url.searchParams.get('code_challenge_method') !== 'S256'
    ) {
      reply(res, 400, { error: 'invalid_request' });
      return;
    }
    const code = token();
    codes.set(code, {
      clientId,
      redirectUri,
      challenge: url.searchParams.get('code_challenge') ?? '',
      user: url.searchParams.get('user') ?? 'anonymous',
    });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    target.searchParams.set('state', url.searchParams.get('state') ?? '');
    res.writeHead(302, { location: target.href }).end();
  };

  const handleMcp = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const user = bearer ? access.get(bearer) : undefined;
    if (!user) {
      res
        .writeHead(401, {
          'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"`,
        })
        .end();
      return;
    }
    counts.mcpRequests++;
    seenUsers.push(user);
    const text = await readText(req);
    const body = text ? (JSON.parse(text) as { method?: unknown }) : undefined;
    if (body?.method === 'initialize') counts.initializes++;
    const server = new McpServer({ name: 'oauth-fixture', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Says whose token it was called with.' }, async () => ({
      content: [{ type: 'text', text: `user=${user} token=${bearer}` }],
    }));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const route = `${req.method} ${url.pathname}`;
    const run = async (): Promise<void> => {
      if (route === 'GET /.well-known/oauth-protected-resource/mcp')
        return reply(res, 200, {
          resource: `${origin}/mcp`,
          authorization_servers: [origin],
          scopes_supported: ['mcp:tools'],
        });
      if (route === 'GET /.well-known/oauth-authorization-server')
        return reply(res, 200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
        });
      if (route === 'POST /register') {
        const body = JSON.parse(await readText(req)) as { redirect_uris?: string[] };
        counts.registrations++;
        const id = `client-${token()}`;
        clients.set(id, body.redirect_uris ?? []);
        return reply(res, 201, {
          ...body,
          client_id: id,
          client_id_issued_at: Math.floor(Date.now() / 1000),
        });
      }
      if (route === 'GET /authorize') return handleAuthorize(url, res);
      if (route === 'POST /token') return handleToken(req, res);
      if (url.pathname === '/mcp') return handleMcp(req, res);
      reply(res, 404, { error: 'not_found' });
    };
    run().catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, { error: 'server_error', error_description: String(error) });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    origin,
    mcpUrl: `${origin}/mcp`,
    counts,
    issued,
    seenUsers,
    expireAccessTokens: () => access.clear(),
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/**
 * Plays the browser of `user`: opens the authorization URL (logging in as `user`), and returns
 * where the authorization server sent it back (the toolplane server's callback URL).
 */
export async function authorizeAs(authorizationUrl: string, user: string): Promise<URL> {
  const url = new URL(authorizationUrl);
  url.searchParams.set('user', user);
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (response.status !== 302 || !location)
    throw new Error(`authorization answered ${response.status}: ${await response.text()}`);
  return new URL(location);
}
