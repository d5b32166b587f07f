import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMcpProvider } from '@toolplane/mcp-provider';
import { type ToolsOrchestrator, createOrchestrator } from '@toolplane/orchestrator';

const require = createRequire(import.meta.url);

/** An orchestrator with `@modelcontextprotocol/server-everything` (from npm) as a stdio child. */
export async function startEverything(): Promise<{
  orchestrator: ToolsOrchestrator;
  close(): Promise<void>;
}> {
  const run = mkdtempSync(join(tmpdir(), 'adapters-everything-'));
  const entry = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
  const orchestrator = createOrchestrator({ internalTools: false });
  orchestrator.register(
    createMcpProvider(
      'everything',
      { type: 'stdio', command: process.execPath, args: [entry, 'stdio'], healthIntervalMs: 0 },
      { runDirectory: run },
    ),
  );
  const [report] = await orchestrator.warmup();
  if (report && 'error' in report && report.error)
    throw new Error(`server-everything did not start: ${String(report.error)}`);
  return {
    orchestrator,
    async close() {
      await orchestrator.close();
      rmSync(run, { recursive: true, force: true });
    },
  };
}
