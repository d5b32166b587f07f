import { riskOf } from '@toolplane/core';
import { loadConfig } from '../config/load.js';
import { type CommandContext, writeJson, writeLine } from '../context.js';
import { EXIT_CODES } from '../output/cli-error.js';
import { createStyle } from '../output/style.js';
import { formatTable } from '../output/table.js';
import { terminalLine } from '../output/terminal-text.js';
import { withRuntime } from '../runtime/lifecycle.js';
import { warningLines } from '../runtime/warnings.js';
import { viewOf } from './principal.js';

/** `toolplane tools list`: the tools a principal sees after policy. */
export async function toolsList(
  context: CommandContext,
  options: { json?: boolean; agent?: string; user?: string },
): Promise<number> {
  const loaded = await loadConfig(context.cwd, context.configPath);
  return withRuntime(loaded, {}, async (runtime) => {
    const tools = runtime.orchestrator.listRegistered(viewOf(options));
    const rows = tools.map((tool) => ({
      name: tool.name,
      namespace: tool.provider.namespace,
      kind: tool.provider.kind,
      risk: riskOf(tool.spec),
      description: tool.spec.description,
    }));
    const failed = runtime.orchestrator.providers().filter((provider) => provider.state === 'failed');
    if (options.json) {
      writeJson(context.stdout, rows);
    } else {
      const style = createStyle(context.stdout);
      const riskColour = (risk: string): string =>
        risk === 'high' || risk === 'critical'
          ? style.red(risk)
          : risk === 'medium'
            ? style.yellow(risk)
            : risk;
      const table = formatTable(
        [
          { header: 'NAME' },
          { header: 'NAMESPACE' },
          { header: 'KIND' },
          { header: 'RISK' },
          { header: 'DESCRIPTION' },
        ],
        // a server's names and descriptions, made inert for the terminal (JSON keeps them exact)
        rows.map((row) => [
          style.bold(terminalLine(row.name)),
          terminalLine(row.namespace),
          terminalLine(row.kind),
          riskColour(row.risk),
          terminalLine((row.description.split('\n')[0] ?? '').trim()),
        ]),
        context.stdout.isTTY ? context.stdout.columns : undefined,
      );
      writeLine(context.stdout, table);
      writeLine(context.stdout, style.dim(`${rows.length} tool(s)`));
    }
    const errorStyle = createStyle(context.stderr);
    for (const provider of failed) {
      writeLine(
        context.stderr,
        `${errorStyle.yellow('warning:')} provider ${terminalLine(provider.namespace)} did not start: ${terminalLine(runtime.redact(provider.error ?? 'unknown error'))} (run \`toolplane doctor\`)`,
      );
    }
    // operations an OpenAPI import skipped: the model will not see them, so say why
    for (const line of warningLines(runtime.providers))
      writeLine(context.stderr, `${errorStyle.yellow('warning:')} ${terminalLine(runtime.redact(line))}`);
    return EXIT_CODES.ok;
  });
}
