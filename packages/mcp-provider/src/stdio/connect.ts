import type { McpStdioServerConfig } from '../config/types.js';
import { openSession } from '../session/open-session.js';
import type { McpSession, SessionOpenOptions } from '../session/session.js';
import { ProcessLedger } from './ledger.js';
import { StdioProcessTransport } from './transport.js';

const ledgers = new Map<string, ProcessLedger>();

/** The ledger of a run directory; the first use reaps what crashed parents left running. */
export function ledgerFor(runDirectory?: string): ProcessLedger {
  const key = runDirectory ?? '';
  let ledger = ledgers.get(key);
  if (!ledger) {
    ledger = new ProcessLedger(runDirectory);
    ledger.reapStale();
    ledgers.set(key, ledger);
  }
  return ledger;
}

/** Spawns a stdio server and initializes an MCP session with it. */
export async function openStdioSession(
  server: string,
  config: McpStdioServerConfig,
  options: SessionOpenOptions & { runDirectory?: string; killGraceMs?: number },
): Promise<McpSession> {
  const transport = new StdioProcessTransport({
    server,
    config,
    ledger: ledgerFor(options.runDirectory),
    ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
  });
  const session = await openSession(
    {
      transport,
      kind: 'stdio',
      direct: transport,
      diagnostics: () => transport.diagnostics(),
      get pid() {
        return transport.pid;
      },
    },
    config.client,
    options,
  );
  transport.started();
  return session;
}
