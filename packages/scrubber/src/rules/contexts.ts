import type { PositiveSample } from '../types.js';

/**
 * The syntactic contexts a credential is leaked in: a shell/.env assignment, JSON, YAML, a URL
 * query, an HTTP header and a log line. Rule samples put each generated fake in all of them.
 */
export function inContexts(secret: string, key = 'token', kind?: string): PositiveSample[] {
  const texts = [
    `export ${key.toUpperCase()}=${secret}\n`,
    `const ${key} = "${secret}";`,
    `{"name":"deploy","${key}":"${secret}","retries":3}`,
    `service:\n  ${key}: ${secret}\n  region: eu-west-1\n`,
    `GET https://api.example.com/v1/items?${key}=${secret}&page=2 HTTP/1.1`,
    `X-Custom-Auth: ${secret}\r\nAccept: */*`,
    `2025-01-17T10:22:03.114Z INFO worker-3 using credential ${secret} for upstream call (attempt 1)`,
  ];
  return texts.map((text) => (kind === undefined ? { text, secret } : { text, secret, kind }));
}

/** Samples for the word-boundary contexts of a bare token (no key name around it). */
export function bareContexts(secret: string): PositiveSample[] {
  return [
    { text: secret, secret },
    { text: `(${secret})`, secret },
    { text: `'${secret}',`, secret },
    { text: `line one\n${secret}\nline three`, secret },
  ];
}
