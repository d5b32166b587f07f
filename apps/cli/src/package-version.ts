import { readFileSync } from 'node:fs';

/**
 * The version in this package's package.json, read next to the running module: dist/ holds
 * both tsc's files and the bundle's chunks, all one level below the package.json.
 */
export function packageVersion(): string {
  try {
    const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
    return (JSON.parse(text) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
