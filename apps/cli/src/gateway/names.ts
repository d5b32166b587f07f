/**
 * How the gateway names what its upstream servers offer: `server__name`, as tools are named,
 * or the server's own names when the gateway fronts one server with `--no-prefix`.
 */
export interface GatewayNames {
  /** The gateway's name for an upstream server's prompt. */
  outward(server: string, name: string): string;
  /** The server and its own name behind a gateway name; undefined when none matches. */
  inward(name: string): { server: string; name: string } | undefined;
}

export function prefixedNames(servers: readonly string[]): GatewayNames {
  return {
    outward: (server, name) => `${server}__${name}`,
    inward(name) {
      for (const server of servers)
        if (name.startsWith(`${server}__`)) return { server, name: name.slice(server.length + 2) };
      return undefined;
    },
  };
}

export function ownNames(server: string): GatewayNames {
  return { outward: (_server, name) => name, inward: (name) => ({ server, name }) };
}
