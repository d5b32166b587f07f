import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One file of the console, read once when the server starts. */
export interface ConsoleAsset {
  /** The path it is served at, under `/console`. */
  readonly path: string;
  readonly contentType: string;
  readonly body: string;
}

// `src/console/*.ts` and `dist/console/*.js` are both two levels under the package root, so
// one relative URL finds the shipped files from either (the package's `files` lists them).
const ASSET_DIR = new URL('../../src/console/assets/', import.meta.url);

const FILES = [
  { path: '/console', file: 'index.html', contentType: 'text/html; charset=utf-8' },
  { path: '/console/console.js', file: 'console.js', contentType: 'text/javascript; charset=utf-8' },
  { path: '/console/console.css', file: 'console.css', contentType: 'text/css; charset=utf-8' },
] as const;

/** Reads the console's files (HTML, one ES module, CSS) from the package. */
export function loadConsoleAssets(dir: URL = ASSET_DIR): ConsoleAsset[] {
  return FILES.map(({ path, file, contentType }) => ({
    path,
    contentType,
    body: readFileSync(fileURLToPath(new URL(file, dir)), 'utf8'),
  }));
}
