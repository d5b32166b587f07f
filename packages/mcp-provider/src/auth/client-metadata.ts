import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';

/** The metadata toolplane registers with (RFC 7591): a public client using PKCE and refresh. */
export function toolplaneClientMetadata(clientName: string, redirectUrl: string): OAuthClientMetadata {
  return {
    client_name: clientName,
    redirect_uris: [redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}
