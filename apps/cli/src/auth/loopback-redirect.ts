import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpAuthRedirect } from '@toolplane/mcp-provider';

/** A listener on 127.0.0.1 for the authorization server's redirect. */
export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port>/callback`. */
  readonly redirectUrl: string;
  /** Resolves with the first redirect's query; rejects after the timeout or on the signal. */
  wait(): Promise<McpAuthRedirect>;
  close(): Promise<void>;
}

const PAGE = (text: string): string =>
  `<!doctype html><meta charset="utf-8"><title>toolplane</title><p>${text}</p>`;

/**
 * Listens on 127.0.0.1, a port the system picks, for `/callback?code=...&state=...`; other paths
 * get 404. The state is checked by the login (it knows the one it sent).
 */
export async function listenForRedirect(timeoutMs: number, signal?: AbortSignal): Promise<LoopbackRedirect> {
  let deliver: (redirect: McpAuthRedirect) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const received = new Promise<McpAuthRedirect>((resolve, reject) => {
    deliver = resolve;
    fail = reject;
  });
  received.catch(() => undefined);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/callback') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const query = url.searchParams;
    const redirect: McpAuthRedirect = {
      ...(query.get('code') ? { code: query.get('code') as string } : {}),
      ...(query.get('state') ? { state: query.get('state') as string } : {}),
      ...(query.get('error') ? { error: query.get('error') as string } : {}),
      ...(query.get('error_description')
        ? { errorDescription: query.get('error_description') as string }
        : {}),
    };
    const ok = redirect.code !== undefined && redirect.error === undefined;
    res
      .writeHead(ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8', connection: 'close' })
      .end(
        PAGE(
          ok
            ? 'Logged in: you can close this tab and go back to the terminal.'
            : 'The login was refused: see the terminal.',
        ),
      );
    deliver(redirect);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const timer = setTimeout(
    () => fail(new Error(`no redirect reached the login within ${Math.round(timeoutMs / 1000)} s`)),
    timeoutMs,
  );
  const onAbort = (): void => fail(new Error('the login was cancelled'));
  signal?.addEventListener('abort', onAbort, { once: true });
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    wait: () => received,
    close: () =>
      new Promise((resolve) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
