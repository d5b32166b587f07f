import { riskOf } from '@toolplane/core';
import { formatPath } from '../config/issue.js';
import { loadConfig } from '../config/load.js';
import { unmatchedPolicyPatterns } from '../config/policy-pattern-issues.js';
import { type CommandContext, writeJson, writeLine } from '../context.js';
import { CliError, EXIT_CODES } from '../output/cli-error.js';
import { createStyle } from '../output/style.js';
import { formatTable } from '../output/table.js';
import { terminalLine } from '../output/terminal-text.js';
import { hiddenProviderLine, hiddenProviders } from '../runtime/hidden-providers.js';
import { withRuntime } from '../runtime/lifecycle.js';
import { warningLines } from '../runtime/warnings.js';
import { viewOf } from './principal.js';

/** `toolplane tools list`: the tools a principal sees after policy. */
export async function toolsList(
  context: CommandContext,
  options: { json?: boolean; agent?: string; user?: string; format?: string; compat?: boolean },
): Promise<number> {
  // the definitions in a model API's dialect (@toolplane/adapters loads only then)
  if (options.format !== undefined || options.compat)
    return (await import('./tools-format.js')).toolsFormat(context, options);
  const loaded = await loadConfig(context.cwd, context.configPath);
  return withRuntime(loaded, {}, async (runtime) => {
    const view = viewOf(options);
    const tools = runtime.orchestrator.listRegistered(view);
    const rows = tools.map((tool) => ({
      name: tool.name,
      namespace: tool.provider.namespace,
      kind: tool.provider.kind,
      risk: riskOf(tool.spec),
      description: tool.spec.description,
      inputSchema: tool.spec.inputSchema,
      ...(tool.spec.outputSchema ? { outputSchema: tool.spec.outputSchema } : {}),
      ...(tool.spec.annotations ? { annotations: tool.spec.annotations } : {}),
    }));
    const failed = runtime.orchestrator.providers().filter((provider) => provider.state === 'failed');
    const errorStyle = createStyle(context.stderr);
    const warn = (line: string): void =>
      writeLine(context.stderr, `${errorStyle.yellow('warning:')} ${terminalLine(runtime.redact(line))}`);
    const failedNames = new Set(failed.map((provider) => provider.namespace));
    const configured = runtime.providers.map(({ provider }) => provider.namespace);
    // every provider failed: an empty table with exit code 0 reads as "the servers offer nothing"
    if (configured.length > 0 && configured.every((name) => failedNames.has(name))) {
      const reasons = failed
        .filter((provider) => configured.includes(provider.namespace))
        .map((provider) => `${provider.namespace} (${provider.error ?? 'unknown error'})`);
      throw new CliError(runtime.redact(`no configured provider started: ${reasons.join('; ')}`), {
        exitCode: EXIT_CODES.toolError,
        code: 'PROVIDER_UNAVAILABLE',
        hint: 'run `toolplane doctor` to see why each provider fails',
      });
    }
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
    for (const provider of failed)
      warn(
        `provider ${provider.namespace} did not start: ${provider.error ?? 'unknown error'} (run \`toolplane doctor\`)`,
      );
    // operations an OpenAPI import skipped: the model will not see them, so say why
    for (const line of warningLines(runtime.providers)) warn(line);
    // a policy entry that names no tool changes nothing: a renamed tool, a misspelt name
    const names = runtime.orchestrator.listRegistered().map((tool) => tool.name);
    for (const unmatched of unmatchedPolicyPatterns(loaded.config.policy, names, [...failedNames]))
      warn(`${formatPath(unmatched.path)}: ${unmatched.message}`);
    for (const hidden of hiddenProviders(runtime, view))
      writeLine(context.stderr, `${errorStyle.dim('note:')} ${terminalLine(hiddenProviderLine(hidden))}`);
    return EXIT_CODES.ok;
  });
}
