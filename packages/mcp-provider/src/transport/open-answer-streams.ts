import type { AnsweredStream } from './answered-stream.js';

/** How many requests given up on are remembered (as the late answers of a session are). */
const REMEMBERED = 1024;

/** One event stream answering a POST, while it is open. */
interface OpenStream {
  readonly answers: AnsweredStream;
  /** Ends the stream (the client reads its end, and the connection goes). */
  end(): void;
}

/**
 * The event streams of one session that answer POSTs and are still open, by the requests they
 * wait for. A request the client gives up on (cancelled, timed out: it sends
 * `notifications/cancelled`) is never answered by a server that follows the spec, so a stream
 * waiting for it stayed open, one connection per call given up, for as long as the session
 * lasted. Given up, it counts as answered: a stream that waits for nothing more is ended.
 */
export class OpenAnswerStreams {
  private readonly byRequest = new Map<string, Set<OpenStream>>();
  /**
   * The last requests given up on: a cancel may go out before the stream that answers the
   * request has opened (its headers still on the way).
   */
  private readonly givenUpKeys = new Set<string>();

  /** Follows a stream that waits for the answers to `awaited`; returns its `forget`. */
  add(requests: ReadonlySet<string>, answers: AnsweredStream, end: () => void): () => void {
    const awaited = [...requests].filter((key) => !this.givenUpKeys.has(key));
    for (const key of requests) if (this.givenUpKeys.has(key)) answers.giveUp(key);
    if (awaited.length === 0) {
      end();
      return () => {};
    }
    const stream: OpenStream = { answers, end };
    for (const key of awaited) {
      const streams = this.byRequest.get(key);
      if (streams) streams.add(stream);
      else this.byRequest.set(key, new Set([stream]));
    }
    return () => {
      for (const key of awaited) {
        const streams = this.byRequest.get(key);
        streams?.delete(stream);
        if (streams?.size === 0) this.byRequest.delete(key);
      }
    };
  }

  /** The client gave up on these requests: streams left waiting for nothing are ended. */
  givenUp(keys: Iterable<string>): void {
    for (const key of keys) {
      this.givenUpKeys.add(key);
      if (this.givenUpKeys.size > REMEMBERED) {
        const oldest = this.givenUpKeys.values().next().value;
        if (oldest !== undefined) this.givenUpKeys.delete(oldest);
      }
      const streams = this.byRequest.get(key);
      if (!streams) continue;
      this.byRequest.delete(key);
      for (const stream of streams) if (stream.answers.giveUp(key)) stream.end();
    }
  }
}
