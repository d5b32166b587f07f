import { AnsweredStream, cancelledIdsOf, requestIdsOf } from './answered-stream.js';
import { followForFetch, releasingBody } from './fetch-signal.js';
import { OpenAnswerStreams } from './open-answer-streams.js';

/** How the error of a message over the bound starts, for the transport's error handler to know it. */
export const MESSAGE_TOO_LARGE = 'a message from the server exceeds';

/**
 * A `fetch` whose response bodies fail once one line (one SSE field, or a whole JSON body,
 * which has no line break to speak of) runs past `maxBytes`: the SDK transports buffer an
 * unfinished line without bound, so a server that streamed one endless line grew the client's
 * memory until the startup or request timeout (300 MB of it took 500 MB of memory).
 *
 * An event stream that answers a POST ends once every request the POST sent has its answer
 * (the body is cancelled, so the connection goes): a server that held it open kept one
 * connection and reader per request. A request the client gave up on (see
 * {@link OpenAnswerStreams}) counts as answered: its answer never comes.
 *
 * Each request follows the caller's signal through a signal of its own while it and its body
 * last (see {@link followForFetch}): the transports give every request one session-long signal.
 */
export function boundedFetch(maxBytes: number, base: typeof fetch = fetch): typeof fetch {
  const open = new OpenAnswerStreams();
  return async (input, init) => {
    if (init?.method === 'POST') open.givenUp(cancelledIdsOf(init.body));
    const follow = followForFetch(init?.signal);
    let response: Response;
    try {
      response = await base(input, follow.signal ? { ...init, signal: follow.signal } : init);
    } catch (error) {
      follow.release();
      throw error;
    }
    if (!response.body) {
      follow.release();
      return response;
    }
    let line = 0;
    const eventStream = response.headers.get('content-type')?.includes('text/event-stream') === true;
    const awaited = eventStream && init?.method === 'POST' ? requestIdsOf(init.body) : undefined;
    const answers = awaited && awaited.size > 0 ? new AnsweredStream(awaited) : undefined;
    let forget = (): void => {};
    const limit = new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        if (answers && awaited) forget = open.add(new Set(awaited), answers, () => controller.terminate());
      },
      transform(chunk, controller) {
        let start = 0;
        for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, start)) {
          line += at - start;
          if (line > maxBytes) break;
          line = 0;
          start = at + 1;
        }
        if (line <= maxBytes) line += chunk.length - start;
        if (line > maxBytes) {
          controller.error(new Error(`${MESSAGE_TOO_LARGE} ${maxBytes} bytes`));
          return;
        }
        controller.enqueue(chunk);
        if (answers?.read(chunk)) controller.terminate();
      },
    });
    const done = (): void => {
      forget();
      follow.release();
    };
    return new Response(releasingBody(response.body.pipeThrough(limit), done), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
