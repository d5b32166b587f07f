import { Socket } from 'node:net';
import type { buildConnector } from 'undici';

/**
 * The sockets a provider's own agents are still connecting. undici's pool keeps connecting after
 * the request that asked for a connection is gone, and destroying an agent does not end a
 * connection attempt either: a TLS handshake that hangs held its socket until the connect
 * timeout, after `close()`. The provider ends them on close.
 */
export class ConnectingSockets {
  private readonly sockets = new Set<Socket>();

  /** `base`, remembering each socket until its connection is made or fails. */
  track(base: buildConnector.connector): buildConnector.connector {
    return (options, callback) => {
      let done = false;
      let socket: Socket | undefined;
      // undici's connector returns the socket it connects (its types say nothing is returned)
      const made: unknown = base(options, (...outcome) => {
        done = true;
        if (socket) this.sockets.delete(socket);
        callback(...outcome);
      });
      if (!done && made instanceof Socket) {
        socket = made;
        this.sockets.add(made);
      }
    };
  }

  /** Destroys every socket still connecting; undici hears that as a failed connection. */
  destroyAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }
}
