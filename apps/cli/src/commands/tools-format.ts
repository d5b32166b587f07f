import { loadConfig } from '../config/load.js';
import { type CommandContext, writeJson, writeLine } from '../context.js';
import { EXIT_CODES, usageError } from '../output/cli-error.js';
import { terminalText } from '../output/terminal-text.js';
import { withRuntime } from '../runtime/lifecycle.js';
import { viewOf } from './principal.js';

/** Options of `tools list` that this command reads. */
export interface ToolsFormatOptions {
  readonly format?: string;
  readonly compat?: boolean;
  readonly json?: boolean;
  readonly agent?: string;
  readonly user?: string;
}

/**
 * `toolplane tools list --format <dialect> [--compat]`: the tools a principal sees, as the
 * definitions a model API takes (`@toolplane/adapters`' `exportTools`), a JSON array on stdout.
 * `--compat` adds the compatibility report: its text on stderr, or with `--json`, stdout is
 * `{ format, tools, report }`.
 */
export async function toolsFormat(context: CommandContext, options: ToolsFormatOptions): Promise<number> {
  const { DIALECTS, exportTools } = await import('@toolplane/adapters');
  const format = options.format;
  if (format === undefined)
    throw usageError(
      '--compat needs --format: the report is of one dialect',
      `add --format with one of ${DIALECTS.join(', ')}`,
    );
  if (!(DIALECTS as readonly string[]).includes(format))
    throw usageError(
      `unknown format ${JSON.stringify(format)}: the formats are ${DIALECTS.join(', ')}`,
      `run \`toolplane tools list --format ${DIALECTS[0]}\`, or another of ${DIALECTS.join(', ')}`,
    );
  const loaded = await loadConfig(context.cwd, context.configPath);
  return withRuntime(loaded, {}, async (runtime) => {
    const specs = runtime.orchestrator.listTools(viewOf(options));
    const exported = exportTools(specs, format);
    if (options.json && options.compat)
      writeJson(context.stdout, { format, tools: exported.definitions, report: exported.report });
    else writeJson(context.stdout, exported.definitions);
    // the report quotes servers' tool names: inert on the terminal
    if (options.compat && !options.json) writeLine(context.stderr, terminalText(exported.reportText));
    const failed = runtime.orchestrator.providers().filter((provider) => provider.state === 'failed');
    for (const provider of failed)
      writeLine(
        context.stderr,
        `warning: provider ${terminalText(provider.namespace)} did not start, its tools are missing (run \`toolplane doctor\`)`,
      );
    return EXIT_CODES.ok;
  });
}
