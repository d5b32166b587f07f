/** An id as a key: `3` and `"3"` are one request (the SDK clients match answers by `Number(id)`). */
const idKey = (id: unknown): string | undefined =>
  typeof id === 'number' || typeof id === 'string' ? String(id) : undefined;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const messagesOf = (text: string): unknown[] => {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return [];
  }
};

/** The ids of the requests a JSON-RPC POST body sends (one message or a batch), as keys. */
export function requestIdsOf(body: unknown): Set<string> {
  const ids = new Set<string>();
  if (typeof body !== 'string') return ids;
  for (const message of messagesOf(body)) {
    if (!isRecord(message) || typeof message.method !== 'string') continue;
    const key = idKey(message.id);
    if (key !== undefined) ids.add(key);
  }
  return ids;
}

/** The ids of the requests a JSON-RPC POST body gives up on (`notifications/cancelled`), as keys. */
export function cancelledIdsOf(body: unknown): Set<string> {
  const ids = new Set<string>();
  if (typeof body !== 'string' || !body.includes('notifications/cancelled')) return ids;
  for (const message of messagesOf(body)) {
    if (!isRecord(message) || message.method !== 'notifications/cancelled') continue;
    const key = isRecord(message.params) ? idKey(message.params.requestId) : undefined;
    if (key !== undefined) ids.add(key);
  }
  return ids;
}

/**
 * Follows the event stream that answers a POST and says when every request the POST sent has
 * its answer: the stream has nothing more to carry then (the spec has the server close it), and
 * a server that holds it open kept a connection and a reader per request for as long as it liked.
 * Reads events as the SDK clients do: `data:` lines joined, events named `message` or unnamed.
 */
export class AnsweredStream {
  private readonly decoder = new TextDecoder();
  private partial = '';
  private data: string[] = [];
  private named = false;

  constructor(private readonly awaited: Set<string>) {}

  /** The client gave up on a request (it will not be answered); true once none is left. */
  giveUp(key: string): boolean {
    this.awaited.delete(key);
    return this.awaited.size === 0;
  }

  /** Reads one chunk; true once every request of the POST has been answered. */
  read(chunk: Uint8Array): boolean {
    const text = this.decoder.decode(chunk, { stream: true });
    let start = 0;
    // only the new text is searched: a long line arriving in many chunks is not split again each time
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', start)) {
      const line = `${this.partial}${text.slice(start, at)}`;
      this.partial = '';
      start = at + 1;
      if (this.line(line.endsWith('\r') ? line.slice(0, -1) : line)) return true;
    }
    this.partial += text.slice(start);
    return false;
  }

  /** One line of the stream; true once every request has been answered. */
  private line(line: string): boolean {
    if (line === '') {
      this.dispatch();
      return this.awaited.size === 0;
    }
    if (line.startsWith('data:')) {
      this.data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    } else if (line.startsWith('event:')) {
      const name = line.slice(6).trim();
      this.named = name !== '' && name !== 'message';
    }
    return false;
  }

  private dispatch(): void {
    const data = this.data;
    const named = this.named;
    this.data = [];
    this.named = false;
    if (data.length === 0 || named) return;
    for (const message of messagesOf(data.join('\n'))) {
      if (!isRecord(message) || message.method !== undefined) continue;
      if (!('result' in message) && !('error' in message)) continue;
      const key = idKey(message.id);
      if (key !== undefined) this.awaited.delete(key);
    }
  }
}
