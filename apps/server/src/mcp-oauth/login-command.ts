/** What `AUTH_REQUIRED` tells a user to do: the route that starts their own login. */
export function linkInstruction(server: string): string {
  return `POST /v1/mcp-servers/${server}/oauth/start with your user key, then open the authorizationUrl it answers`;
}
