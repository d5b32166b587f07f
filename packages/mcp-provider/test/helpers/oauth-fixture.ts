import { createHash, randomBytes } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** How the fixture's authorization server misbehaves, when a test asks it to. */
export interface OAuthFixtureOptions {
  /** Seconds of `expires_in` of each access token. Default 3600. */
  readonly expiresIn?: number;
  /** The token endpoint never answers. */
  readonly tokenHangs?: boolean;
  /** The token endpoint answers 200 with a body that is not JSON. */
  readonly tokenGarbage?: boolean;
  /** The token endpoint answers this status with an OAuth `server_error` body. */
  readonly tokenStatus?: number;
  /** The protected resource metadata names this `resource` (another origin: refused by clients). */
  readonly resourceOverride?: string;
  /** The redirect carries this state instead of the one sent. */
  readonly wrongState?: string;
  /** A pre-registered confidential client (client_secret_basic); registration is then refused. */
  readonly confidentialClient?: { readonly id: string; readonly secret: string };
  /** The scope the 401's WWW-Authenticate names. Default `mcp:tools`. */
  readonly challengeScope?: string;
  /** MCP requests need a token granted this scope, else 403 `insufficient_scope` (step-up). */
  readonly requiredScope?: string;
  /** Only requests of this JSON-RPC method need {@link requiredScope} (default: every request). */
  readonly requiredScopeFor?: string;
  /** Refresh grants never answer (`hang`) or answer 200 with a body that is not JSON (`garbage`). */
  readonly refreshFault?: 'hang' | 'garbage';
}

interface Client {
  readonly id: string;
  readonly secret?: string;
  readonly redirectUris: readonly string[];
}

interface Grant {
  readonly clientId: string;
  readonly challenge: string;
  readonly redirectUri: string;
  readonly resource: string | null;
  readonly scope: string | null;
}

/** Counts of what the fixture served, for tests to check. */
export interface OAuthFixtureCounts {
  registrations: number;
  authorizations: number;
  codeExchanges: number;
  refreshes: number;
  refusedRefreshes: number;
  unauthorizedMcp: number;
  mcpCalls: number;
}

/** A running authorization server + protected MCP server on one 127.0.0.1 port. */
export interface OAuthFixture {
  readonly origin: string;
  readonly mcpUrl: string;
  readonly counts: OAuthFixtureCounts;
  /** The `resource` and `scope` parameters the last authorization request carried. */
  readonly lastAuthorization: {
    resource: string | null;
    scope: string | null;
    challengeMethod: string | null;
  };
  /** Every access token stops working; refresh tokens still work. */
  expireAccessTokens(): void;
  /** Every access and refresh token stops working (the user revoked the grant). */
  revokeAll(): void;
  close(): Promise<void>;
}

const json = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const token = (): string => randomBytes(24).toString('base64url');

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'oauth-fixture', version: '1.0.0' });
  server.registerTool(
    'whoami',
    { description: 'Echoes the bearer token it was called with.' },
    async (extra) => ({
      content: [{ type: 'text', text: String(extra.requestInfo?.headers?.authorization ?? '') }],
    }),
  );
  return server;
}

/** Starts the fixture on 127.0.0.1, port 0. */
export async function startOAuthFixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const clients = new Map<string, Client>();
  if (options.confidentialClient) {
    clients.set(options.confidentialClient.id, {
      id: options.confidentialClient.id,
      secret: options.confidentialClient.secret,
      redirectUris: [],
    });
  }
  const codes = new Map<string, Grant>();
  const access = new Map<string, string>();
  const refresh = new Map<string, string>();
  const counts: OAuthFixtureCounts = {
    registrations: 0,
    authorizations: 0,
    codeExchanges: 0,
    refreshes: 0,
    refusedRefreshes: 0,
    unauthorizedMcp: 0,
    mcpCalls: 0,
  };
  const lastAuthorization = {
    resource: null as string | null,
    scope: null as string | null,
    challengeMethod: null as string | null,
  };
  let origin = '';
  const mcpUrl = (): string => `${origin}/mcp`;
  const scope = options.challengeScope ?? 'mcp:tools';

  const scopes = new Map<string, string>();
  const issue = (clientId: string, res: ServerResponse, granted = scope): void => {
    const accessToken = token();
    const refreshToken = token();
    access.set(accessToken, clientId);
    scopes.set(accessToken, granted);
    scopes.set(refreshToken, granted);
    refresh.set(refreshToken, clientId);
    json(res, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: options.expiresIn ?? 3600,
      refresh_token: refreshToken,
      scope: granted,
    });
  };

  const authenticate = (req: IncomingMessage, form: URLSearchParams): Client | undefined => {
    const header = req.headers.authorization;
    if (header?.startsWith('Basic ')) {
      const [id, secret] = Buffer.from(header.slice(6), 'base64')
        .toString('utf8')
        .split(':')
        .map(decodeURIComponent);
      const client = clients.get(id ?? '');
      return client?.secret !== undefined && client.secret === secret ? client : undefined;
    }
    const client = clients.get(form.get('client_id') ?? '');
    if (!client) return undefined;
    if (client.secret !== undefined) return form.get('client_secret') === client.secret ? client : undefined;
    return client;
  };

  const handleToken = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const form = new URLSearchParams(await readText(req));
    const refreshing = form.get('grant_type') === 'refresh_token';
    // never answers; close() ends the connection
    if (options.tokenHangs || (refreshing && options.refreshFault === 'hang')) return;
    if (options.tokenStatus !== undefined)
      return json(res, options.tokenStatus, {
        error: 'server_error',
        error_description: 'the database is down',
      });
    if (options.tokenGarbage || (refreshing && options.refreshFault === 'garbage')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('<html>not json</html>');
      return;
    }
    const client = authenticate(req, form);
    if (!client) return json(res, 401, { error: 'invalid_client' });
    if (form.get('grant_type') === 'authorization_code') {
      const grant = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (
        !grant ||
        grant.clientId !== client.id ||
        grant.challenge !== challenge ||
        grant.redirectUri !== form.get('redirect_uri') ||
        grant.resource !== form.get('resource')
      )
        return json(res, 400, { error: 'invalid_grant' });
      counts.codeExchanges++;
      return issue(client.id, res, grant.scope ?? scope);
    }
    if (form.get('grant_type') === 'refresh_token') {
      const owner = refresh.get(form.get('refresh_token') ?? '');
      if (owner !== client.id) {
        counts.refusedRefreshes++;
        return json(res, 400, { error: 'invalid_grant', error_description: 'refresh token revoked' });
      }
      refresh.delete(form.get('refresh_token') ?? '');
      counts.refreshes++;
      return issue(client.id, res, scopes.get(form.get('refresh_token') ?? '') ?? scope);
    }
    json(res, 400, { error: 'unsupported_grant_type' });
  };

  const handleAuthorize = (url: URL, res: ServerResponse) => {
    const client = clients.get(url.searchParams.get('client_id') ?? '');
    const redirectUri = url.searchParams.get('redirect_uri') ?? '';
    if (!client || (client.secret === undefined && !client.redirectUris.includes(redirectUri)))
      return json(res, 400, {
        error: 'invalid_request',
        error_description: 'unknown client or redirect_uri',
      });
    lastAuthorization.resource = url.searchParams.get('resource');
    lastAuthorization.scope = url.searchParams.get('scope');
    lastAuthorization.challengeMethod = url.searchParams.get('code_challenge_method');
    if (lastAuthorization.challengeMethod !== 'S256' || !url.searchParams.get('code_challenge'))
      return json(res, 400, { error: 'invalid_request', error_description: 'PKCE S256 required' });
    counts.authorizations++;
    const code = token();
    codes.set(code, {
      clientId: client.id,
      challenge: url.searchParams.get('code_challenge') ?? '',
      redirectUri,
      resource: lastAuthorization.resource,
      scope: lastAuthorization.scope,
    });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    target.searchParams.set('state', options.wrongState ?? url.searchParams.get('state') ?? '');
    res.writeHead(302, { location: target.href }).end();
  };

  const handleMcp = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !access.has(bearer)) {
      counts.unauthorizedMcp++;
      res
        .writeHead(401, {
          'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="${scope}"`,
        })
        .end();
      return;
    }
    const text = await readText(req);
    const body = text ? (JSON.parse(text) as { method?: unknown }) : undefined;
    const needed =
      options.requiredScopeFor === undefined || body?.method === options.requiredScopeFor
        ? options.requiredScope
        : undefined;
    if (needed && !(scopes.get(bearer) ?? '').split(' ').includes(needed)) {
      res
        .writeHead(403, {
          'www-authenticate': `Bearer error="insufficient_scope", scope="${needed}", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
        })
        .end();
      return;
    }
    counts.mcpCalls++;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = mcpServer();
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
      if (route === 'GET /.well-known/oauth-protected-resource/mcp') {
        return json(res, 200, {
          resource: options.resourceOverride ?? mcpUrl(),
          authorization_servers: [origin],
          scopes_supported: ['mcp:tools', 'mcp:admin'],
        });
      }
      if (route === 'GET /.well-known/oauth-authorization-server') {
        return json(res, 200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          ...(options.confidentialClient ? {} : { registration_endpoint: `${origin}/register` }),
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: options.confidentialClient
            ? ['client_secret_basic']
            : ['none'],
        });
      }
      if (route === 'POST /register') {
        const body = JSON.parse(await readText(req)) as { redirect_uris?: string[] };
        counts.registrations++;
        const id = `client-${token()}`;
        clients.set(id, { id, redirectUris: body.redirect_uris ?? [] });
        return json(res, 201, { ...body, client_id: id, client_id_issued_at: Math.floor(Date.now() / 1000) });
      }
      if (route === 'GET /authorize') return handleAuthorize(url, res);
      if (route === 'POST /token') return handleToken(req, res);
      if (url.pathname === '/mcp') return handleMcp(req, res);
      json(res, 404, { error: 'not_found' });
    };
    run().catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: 'server_error', error_description: String(error) });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    origin,
    mcpUrl: mcpUrl(),
    counts,
    lastAuthorization,
    expireAccessTokens: () => access.clear(),
    revokeAll: () => {
      access.clear();
      refresh.clear();
    },
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/**
 * Plays the browser: opens the authorization URL, follows the authorization server's redirect
 * and returns the query it carried (what the loopback listener would receive).
 */
export async function followAuthorization(
  url: URL,
): Promise<{ code?: string; state?: string; location: URL }> {
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (response.status !== 302 || !location)
    throw new Error(`authorization answered ${response.status}: ${await response.text()}`);
  const target = new URL(location);
  const code = target.searchParams.get('code') ?? undefined;
  const state = target.searchParams.get('state') ?? undefined;
  return { ...(code ? { code } : {}), ...(state ? { state } : {}), location: target };
}
