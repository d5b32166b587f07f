import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';

/** What an unauthenticated `initialize` told about a server's authorization. */
export interface AuthProbe {
  /** True when the server answered 401 (it wants a bearer token). */
  readonly required: boolean;
  readonly status: number;
  readonly resourceMetadataUrl?: URL;
  readonly scope?: string;
}

/**
 * Sends an `initialize` without credentials and reads the `WWW-Authenticate` challenge: its
 * `resource_metadata` URL (RFC 9728) and `scope`, which pick the scope a login asks for.
 */
export async function probeAuth(serverUrl: string, fetchFn: typeof fetch): Promise<AuthProbe> {
  const response = await fetchFn(serverUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'toolplane-auth-probe', version: '1' },
      },
    }),
  });
  await response.body?.cancel();
  if (response.status !== 401) return { required: false, status: response.status };
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  return {
    required: true,
    status: response.status,
    ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
    ...(scope ? { scope } : {}),
  };
}
