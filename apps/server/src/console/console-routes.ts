import type { ServerApp } from '../http/env.js';
import { type ConsoleAsset, loadConsoleAssets } from './console-assets.js';
import { consoleHeaders } from './console-headers.js';

/**
 * Serves the web console at `/console`: a static page that signs in with an API key and uses
 * the `/v1` API from the browser. The files need no key (they hold no data); every request the
 * page makes carries the key as the `Authorization` header.
 */
export function registerConsoleRoutes(
  app: ServerApp,
  assets: readonly ConsoleAsset[] = loadConsoleAssets(),
): void {
  for (const asset of assets) {
    app.get(asset.path, (c) => c.body(asset.body, 200, consoleHeaders(asset.contentType)));
  }
  app.get('/console/', (c) => c.redirect('/console', 308));
}
