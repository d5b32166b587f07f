import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../../src/index.js';
import { rejection } from '../helpers/bad-input.js';
import { eventually } from '../helpers/counted-server.js';
import { useCleanups } from '../helpers/fixtures.js';
import { countConnectErrors, silentServer } from '../helpers/silent-server.js';

const { defer } = useCleanups();

describe('a document fetch still connecting', () => {
  it('ends at a cancellation or its fetch timeout without waiting for the connect timeout', async () => {
    const silent = await silentServer(defer);
    const connectErrors = countConnectErrors(defer, silent.port);
    const controller = new AbortController();
    const cancelled = importOpenApi(`https://127.0.0.1:${silent.port}/openapi.json`, {
      signal: controller.signal,
    });
    expect(await eventually(() => silent.open.size === 1)).toBe(true);
    controller.abort();
    expect((await rejection(cancelled)).code).toBe('CANCELLED');
    const timedOut = await rejection(
      importOpenApi(`https://127.0.0.1:${silent.port}/other.json`, { fetchTimeoutMs: 300 }),
    );
    expect(timedOut.code).toBe('TIMEOUT');
    // both settled while their handshakes still hung, not at undici's connect timeout (10 s)
    expect(connectErrors()).toBe(0);
  }, 30_000);
});
