import type { ToolProvider } from '@toolplane/core';
import { loadConfig } from '../config/load.js';
import { type CommandContext, writeJson, writeLine } from '../context.js';
import { EXIT_CODES } from '../output/cli-error.js';
import { startSpinner } from '../output/spinner.js';
import { createStyle } from '../output/style.js';
import { formatTable } from '../output/table.js';
import { terminalLine } from '../output/terminal-text.js';
import { withRuntime } from '../runtime/lifecycle.js';
import type { Runtime } from '../runtime/assemble.js';
import { strayOutputWarning } from '../runtime/stray-output.js';
import { providerWarnings } from '../runtime/warnings.js';

const PING_TIMEOUT_MS = 10_000;

interface DoctorRow {
  readonly provider: string;
  readonly kind: string;
  readonly source: string;
  readonly ok: boolean;
  readonly tools: number;
  readonly startMs: number;
  /** A round trip to the provider: an MCP `ping` for MCP servers, listing tools for the others. */
  readonly pingMs?: number;
  readonly detail: string;
  /** What the provider reported while starting (an OpenAPI import's skipped operations). */
  readonly warnings?: readonly string[];
}

type Refreshable = ToolProvider & {
  ping?: (options: { signal?: AbortSignal; timeoutMs?: number }) => Promise<number>;
  status?: () => { pid?: number; transport?: string; identity?: { name?: string; version?: string } };
};

async function ping(provider: Refreshable): Promise<{ ms?: number; error?: string }> {
  const started = performance.now();
  try {
    if (provider.ping) return { ms: await provider.ping({ timeoutMs: PING_TIMEOUT_MS }) };
    await provider.listTools();
    return { ms: performance.now() - started };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function describeStatus(provider: Refreshable): string {
  const status = provider.status?.();
  if (!status) return '';
  const parts: string[] = [];
  if (status.identity?.name)
    parts.push(`${status.identity.name}${status.identity.version ? ` ${status.identity.version}` : ''}`);
  if (status.transport) parts.push(status.transport);
  if (status.pid) parts.push(`pid ${status.pid}`);
  return parts.join(', ');
}

/**
 * What a provider reported while starting, and what its server wrote to stdout that is not
 * JSON-RPC, redacted (a diagnosis people paste into issues).
 */
function warningsOf(runtime: Runtime, provider: ToolProvider): string[] {
  const warnings = providerWarnings(provider).map((warning) => runtime.redact(warning));
  const stray = runtime.strayOutput.of(provider.namespace);
  if (stray) warnings.push(strayOutputWarning(stray, (text) => runtime.redact(text)));
  return warnings;
}

/** `toolplane doctor`: starts each provider and reports, in one table, what works and why not. */
export async function doctor(context: CommandContext, options: { json?: boolean }): Promise<number> {
  const loaded = await loadConfig(context.cwd, context.configPath);
  return withRuntime(loaded, { warmup: false }, async (runtime, stopped) => {
    const spinner = startSpinner(`starting ${runtime.providers.length} provider(s)…`);
    const reports = await runtime.warmup().finally(() => spinner.stop());
    // reports also cover the orchestrator's internal tools; match them to providers by namespace, in order
    const byNamespace = new Map<string, typeof reports>();
    for (const report of reports)
      byNamespace.set(report.provider, [...(byNamespace.get(report.provider) ?? []), report]);
    const rows: DoctorRow[] = [];
    for (const configured of runtime.providers) {
      const report = byNamespace.get(configured.provider.namespace)?.shift();
      const provider = configured.provider as Refreshable;
      const base = {
        provider: provider.namespace,
        kind: provider.kind,
        source: configured.source,
        startMs: Math.round(report?.durationMs ?? 0),
      };
      const round = report?.ok ? await ping(provider) : undefined;
      const warnings = warningsOf(runtime, provider);
      const detail = !report?.ok
        ? runtime.redact(report?.error ?? 'did not start')
        : round?.error
          ? `round trip failed: ${runtime.redact(round.error)}`
          : describeStatus(provider);
      rows.push({
        ...base,
        ok: report?.ok === true && round?.error === undefined,
        tools: report?.ok ? report.tools : 0,
        ...(round?.ms === undefined ? {} : { pingMs: Math.round(round.ms * 10) / 10 }),
        detail: warnings.length
          ? [detail, `${warnings.length} warning(s), below`].filter(Boolean).join('; ')
          : detail,
        ...(warnings.length ? { warnings } : {}),
      });
    }
    // stopped by a signal during the round trips: they failed because of it, not a table to print
    if (stopped.aborted) return EXIT_CODES.toolError;
    const { sandboxReportOf, sandboxLines } = await import('../sandbox/doctor-lines.js');
    const sandbox = await sandboxReportOf(loaded);
    if (stopped.aborted) return EXIT_CODES.toolError;
    const failures = rows.filter((row) => !row.ok).length;
    const sandboxOk = sandbox?.ok !== false;
    if (options.json) {
      writeJson(context.stdout, {
        config: loaded.file ?? null,
        ok: failures === 0 && sandboxOk,
        providers: rows,
        ...(sandbox ? { sandbox } : {}),
      });
    } else {
      const style = createStyle(context.stdout);
      writeLine(
        context.stdout,
        `config: ${loaded.file ?? `(none: read-only built-in tools on ${context.cwd})`}`,
      );
      writeLine(
        context.stdout,
        formatTable(
          [
            { header: 'PROVIDER' },
            { header: 'KIND' },
            { header: 'STATUS' },
            { header: 'TOOLS', align: 'right' },
            { header: 'START', align: 'right' },
            { header: 'PING', align: 'right' },
            { header: 'DETAIL' },
          ],
          // a server's error text and identity, made inert for the terminal (JSON keeps them exact)
          rows.map((row) => [
            terminalLine(row.provider),
            terminalLine(row.kind),
            row.ok ? style.green('ok') : style.red('FAILED'),
            String(row.tools),
            `${row.startMs} ms`,
            row.pingMs === undefined ? '-' : `${row.pingMs} ms`,
            terminalLine(row.detail),
          ]),
        ),
      );
      for (const row of rows)
        for (const warning of row.warnings ?? [])
          writeLine(
            context.stdout,
            `${style.yellow('warning:')} provider ${terminalLine(row.provider)}: ${terminalLine(warning)}`,
          );
      for (const line of sandbox ? sandboxLines(sandbox, style) : []) writeLine(context.stdout, line);
      writeLine(
        context.stdout,
        failures === 0
          ? style.green(`all ${rows.length} provider(s) work`)
          : style.red(`${failures} of ${rows.length} provider(s) do not work`),
      );
      if (!sandboxOk) writeLine(context.stdout, style.red(`the ${sandbox?.kind} sandbox does not work`));
    }
    return failures === 0 && sandboxOk ? EXIT_CODES.ok : EXIT_CODES.toolError;
  });
}
