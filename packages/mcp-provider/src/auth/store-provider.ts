import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { authRequiredError } from './auth-required.js';
import { toolplaneClientMetadata } from './client-metadata.js';
import type { McpAuth } from './mcp-auth.js';
import type { McpAuthRecord } from './token-store.js';

/** How the provider is used: inside calls (never interactive) or by a login. */
export type StoreProviderMode =
  | {
      readonly kind: 'call';
      /** Why the last token request failed when a login would not cure it (reported instead). */
      readonly tokenFailure?: () => Error | undefined;
    }
  | {
      readonly kind: 'login';
      readonly redirectUrl: string;
      readonly state: string;
      /** The verifier of a login begun elsewhere (its code exchange happens here). */
      readonly codeVerifier?: string;
      readonly onAuthorizationUrl: (url: URL) => void;
    };

const UNUSED_REDIRECT = 'http://127.0.0.1/callback';

/**
 * The SDK's {@link OAuthClientProvider} over a token store, for one server. In `call` mode it
 * never starts an interactive flow: where the SDK would send the user to the authorization
 * server (or register a client), it throws `AUTH_REQUIRED` naming the login command.
 */
export class StoreOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;

  constructor(
    private readonly auth: McpAuth,
    private readonly server: string,
    private readonly serverUrl: string,
    private readonly mode: StoreProviderMode,
    private redirectUri: string | undefined = undefined,
  ) {
    if (mode.kind === 'login') {
      this.redirectUri = mode.redirectUrl;
      this.verifier = mode.codeVerifier;
    }
  }

  /** The PKCE verifier the SDK made for this login, to keep until the code comes back. */
  pendingVerifier(): string | undefined {
    return this.verifier;
  }

  get redirectUrl(): string {
    return this.redirectUri ?? UNUSED_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return toolplaneClientMetadata(this.auth.clientName, this.redirectUrl);
  }

  get clientMetadataUrl(): string | undefined {
    return this.auth.clientMetadataUrl;
  }

  private required(why: string): Error {
    return authRequiredError(this.server, this.auth.loginCommand(this.server), why);
  }

  private async record(): Promise<McpAuthRecord | undefined> {
    const record = await this.auth.read(this.server);
    // a record written for another URL (the config changed) is not sent to this one
    return record?.serverUrl === this.serverUrl ? record : undefined;
  }

  private async update(change: (record: McpAuthRecord) => McpAuthRecord): Promise<void> {
    const record = (await this.record()) ?? { serverUrl: this.serverUrl };
    await this.auth.write(this.server, change(record));
  }

  state(): string {
    // the SDK asks for a new authorization after any failed refresh: a broken token endpoint
    // is reported as itself, since a login would meet the same endpoint
    if (this.mode.kind !== 'login')
      throw (
        this.mode.tokenFailure?.() ?? this.required('the stored token expired and could not be refreshed')
      );
    return this.mode.state;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const record = await this.record();
    if (!record?.client && this.mode.kind === 'call') throw this.required('no login is stored');
    if (this.mode.kind === 'call' && !record?.tokens) throw this.required('no login is stored');
    if (record?.redirectUri) this.redirectUri ??= record.redirectUri;
    return record?.client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    if (this.mode.kind === 'call') throw this.required('no client is registered');
    await this.update((record) => ({ ...record, client, redirectUri: this.redirectUrl }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const record = await this.record();
    if (record?.redirectUri) this.redirectUri ??= record.redirectUri;
    if (!record?.tokens) return undefined;
    const { expires_at: _expiresAt, ...tokens } = record.tokens;
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.update((record) => {
      // a refresh answer may leave out the refresh token: the old one stays valid
      const refresh = tokens.refresh_token ?? record.tokens?.refresh_token;
      return {
        ...record,
        tokens: {
          ...tokens,
          ...(refresh === undefined ? {} : { refresh_token: refresh }),
          ...(tokens.expires_in === undefined ? {} : { expires_at: Date.now() + tokens.expires_in * 1000 }),
        },
      };
    });
  }

  redirectToAuthorization(url: URL): void {
    if (this.mode.kind !== 'login') throw this.required('the server asks for a new authorization');
    this.mode.onAuthorizationUrl(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw this.required('no login is in progress');
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') {
      this.verifier = undefined;
      return;
    }
    await this.update((record) => {
      if (scope === 'all') return { serverUrl: record.serverUrl };
      const { tokens, client, discovery, ...rest } = record;
      if (scope === 'tokens')
        return { ...rest, ...(client ? { client } : {}), ...(discovery ? { discovery } : {}) };
      if (scope === 'client')
        return { ...rest, ...(tokens ? { tokens } : {}), ...(discovery ? { discovery } : {}) };
      return { ...rest, ...(tokens ? { tokens } : {}), ...(client ? { client } : {}) };
    });
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.update((record) => ({ ...record, discovery: state as unknown as Record<string, unknown> }));
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.record())?.discovery as OAuthDiscoveryState | undefined;
  }
}
