import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Executor } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkAllowList, NetworkRefusal } from '../../src/index.js';
import { makeWorkspace } from './engines.js';

type ClosableExecutor = Executor & { close(): Promise<void> };

/**
 * The allow-list behaviour every engine must show: an allowed host is reached through the proxy,
 * a host not listed is refused and reported, and no route leads around the proxy. `create` builds
 * the engine's executor for the given workspace and network options.
 */
export function describeNetworkAllowList(
  engine: string,
  skip: string | undefined,
  create: (workspace: string, network: NetworkAllowList) => ClosableExecutor,
): void {
  describe.skipIf(skip !== undefined)(`${engine} sandbox with a network allow-list`, () => {
    const workspace = makeWorkspace();
    const hits: string[] = [];
    const refusals: NetworkRefusal[] = [];
    let server: Server;
    let port: number;
    let executor: ClosableExecutor;
    const run = (command: string) =>
      executor.start({ command, cwd: workspace.path, env: {}, sandboxKey: 'net', timeoutMs: 20_000 }).done;

    beforeAll(async () => {
      server = createServer((request, response) => {
        hits.push(request.url ?? '');
        response.end('reached');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
      executor = create(workspace.path, {
        allow: ['localhost'],
        ports: [port],
        allowedRanges: ['127.0.0.0/8', '::1/128'],
        onRefused: (refusal) => refusals.push(refusal),
      });
    });
    afterAll(async () => {
      await executor.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      workspace.remove();
    });

    it('reaches an allowed host through the proxy', async () => {
      const result = await run(`wget -q -O- http://localhost:${port}/allowed`);
      expect(result.stdout).toBe('reached');
      expect(hits).toContain('/allowed');
    });

    it('refuses a host that is not listed, reports it, and says so after the output', async () => {
      const result = await run(`wget -q -O- http://not-listed.example:${port}/refused`);
      expect(result.exitCode).not.toBe(0);
      expect(refusals.some((refusal) => refusal.host === 'not-listed.example')).toBe(true);
      expect(result.notes?.join('\n')).toContain('refused not-listed.example');
      expect(result.stderr.trimEnd().split('\n').at(-1)).toContain('allow-list refused');
    });

    it('has no way out around the proxy', async () => {
      const result = await run(
        `wget -q -Y off -T 2 -O- http://127.0.0.1:${port}/direct; tail -n +3 /proc/net/dev | cut -d: -f1`,
      );
      expect(hits).not.toContain('/direct');
      expect(result.stdout.trim()).toBe('lo');
    });
  });
}
