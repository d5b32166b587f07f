import { ToolError } from '@toolplane/core';
import { optionsFromEnv } from './config/env-options.js';
import { startBanner } from './first-run.js';
import { startServer } from './server.js';

async function main(): Promise<void> {
  const server = await startServer(optionsFromEnv(process.env));
  process.stdout.write(startBanner(server));
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`toolplane server: ${signal}: finishing calls in flight, then stopping\n`);
    void server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`toolplane server: stop failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  // @toolplane/mcp-provider's process guard kills stdio MCP servers the moment SIGTERM or
  // SIGINT arrives, which would fail the calls shutdown lets finish. Here the server alone
  // answers those signals: it drains, then closes every provider itself; the guard's `exit`
  // hook still kills any tree left when the process exits. Node binds `process.emit` when the
  // first listener of a signal is added, so this comes first.
  const emit = process.emit.bind(process) as (event: string | symbol, ...args: unknown[]) => boolean;
  process.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
    if (event === 'SIGTERM' || event === 'SIGINT') {
      stop(event);
      return true;
    }
    return emit(event, ...args);
  }) as typeof process.emit;
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  const message = ToolError.isInstance(error)
    ? `${error.code}: ${error.message}`
    : String((error as Error)?.stack ?? error);
  process.stderr.write(`toolplane server: could not start: ${message}\n`);
  process.exit(1);
});
