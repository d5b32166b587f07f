import pg from 'pg';

/**
 * LISTEN on a connection of its own, held for the server's life. When the connection drops
 * (the database restarts, the backend is terminated) it reconnects with a growing pause (0.2 s
 * up to 5 s), listens again on every channel, and hands every listener `resyncPayload`, as
 * notifications sent while it was away are lost.
 */
export class PostgresListener {
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private readonly listeners = new Map<string, ((payload: string) => void)[]>();
  private closed = false;
  private retryMs = 200;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly resyncPayload: string,
  ) {}

  /** Calls `onPayload` with each notification on `channel`; resolves once listening. */
  async listen(channel: string, onPayload: (payload: string) => void): Promise<void> {
    const known = this.listeners.get(channel);
    if (known) known.push(onPayload);
    else this.listeners.set(channel, [onPayload]);
    const client = await this.connected();
    if (!known) await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
  }

  private connected(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting.then(() => this.client as pg.Client);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    let lost = false;
    const onLost = (): void => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = undefined;
      client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on('notification', (message) => {
      if (message.payload === undefined) return;
      for (const listener of this.listeners.get(message.channel) ?? []) listener(message.payload);
    });
    await client.connect();
    for (const channel of this.listeners.keys())
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    this.client = client;
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.closed) return;
      this.connected().then(
        () => {
          this.retryMs = 200;
          for (const listeners of this.listeners.values())
            for (const listener of listeners) listener(this.resyncPayload);
        },
        () => {
          this.retryMs = Math.min(this.retryMs * 2, 5_000);
          this.scheduleReconnect();
        },
      );
    }, this.retryMs);
    this.retryTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
