import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { errorMessage } from '@toolplane/core';
import { type ConfigIssue, formatIssue, formatPath } from '../config/issue.js';
import { type LoadedConfig, readConfig } from '../config/load.js';
import { mcpProblemIssue } from '../config/mcp-issues.js';
import { type CommandContext, writeJson, writeLine } from '../context.js';
import { EXIT_CODES } from '../output/cli-error.js';
import { createStyle } from '../output/style.js';
import { mcpLoadOptions } from '../config/mcp-load-options.js';
import { withSharedHeaders } from '../runtime/shared-headers.js';

/** Problems of MCP server entries (commands, types, unset variables), with their positions. */
async function mcpIssues(
  file: string,
  document: object,
  key: string,
  directory: string,
  locate: LoadedConfig['locate'],
): Promise<ConfigIssue[]> {
  const { loadMcpConfig } = await import('@toolplane/mcp-provider');
  let mcp: Awaited<ReturnType<typeof loadMcpConfig>>;
  try {
    mcp = await loadMcpConfig(document, mcpLoadOptions(document, directory));
  } catch (error) {
    // the servers' table itself is unusable (`"servers": 5`): one issue at the key, not the end of validate
    const message = errorMessage(error).replace(/^MCP config: /, '');
    // a top-level key the loader refuses (`"openapi" is not a field of the config`) is where it is
    // written, not at the servers' key
    const named = /^"([^"]+)" is not a field of the config/.exec(message)?.[1];
    const at = named !== undefined && Object.hasOwn(document, named) ? named : key;
    return [{ file, ...locate([at]), path: at, message }];
  }
  return mcp.problems.map((problem) => mcpProblemIssue(file, problem, locate, key));
}

/** Checks that go beyond the schema: MCP server entries, REST tool configs, paths, the policy. */
async function deepIssues(loaded: LoadedConfig): Promise<ConfigIssue[]> {
  const file = loaded.file ?? '';
  const issues: ConfigIssue[] = [];
  const add = (path: (string | number)[], message: string): void => {
    issues.push({ file, ...loaded.locate(path), path: formatPath(path), message });
  };
  const at = (path: string): string => (isAbsolute(path) ? path : resolve(loaded.directory, path));
  if (loaded.mcpDocument)
    issues.push(
      ...(await mcpIssues(
        file,
        loaded.mcpDocument,
        loaded.mcpKey ?? 'mcpServers',
        loaded.directory,
        loaded.locate,
      )),
    );
  const { config } = loaded;
  if (config.rest?.length) {
    const { createRestProvider, readToolConfig } = await import('@toolplane/rest-openapi');
    for (const [index, entry] of config.rest.entries()) {
      try {
        const tools = entry.file === undefined ? entry.tools : await readToolConfig(at(entry.file));
        const provider = createRestProvider({
          namespace: entry.namespace,
          tools: withSharedHeaders(tools ?? {}, entry.headers) as never,
        });
        await provider.close?.();
      } catch (error) {
        add(['rest', index, entry.file === undefined ? 'tools' : 'file'], errorMessage(error));
      }
    }
  }
  for (const [index, entry] of (config.openapi ?? []).entries()) {
    if (!/^https?:\/\//.test(entry.source) && !existsSync(at(entry.source)))
      add(
        ['openapi', index, 'source'],
        `${entry.source} does not exist (relative paths start at the config's directory)`,
      );
  }
  if (config.builtin && !existsSync(at(config.builtin.workspace)))
    add(
      ['builtin', 'workspace'],
      `${config.builtin.workspace} does not exist (relative paths start at the config's directory)`,
    );
  else if (config.builtin && !statSync(at(config.builtin.workspace)).isDirectory())
    add(
      ['builtin', 'workspace'],
      `${config.builtin.workspace} is a file, not a directory: give the folder the built-in tools work in`,
    );
  try {
    const { createPolicy } = await import('@toolplane/policy');
    createPolicy(config.policy as never);
  } catch (error) {
    add(['policy'], errorMessage(error));
  }
  return issues;
}

/** `toolplane config validate`: every problem with file, line and field path. */
export async function configValidate(context: CommandContext, options: { json?: boolean }): Promise<number> {
  const outcome = await readConfig(context.cwd, context.configPath);
  const issues = outcome.ok ? await deepIssues(outcome.loaded) : [...outcome.issues];
  if (!outcome.ok && outcome.mcpDocument && outcome.locate)
    issues.push(
      ...(await mcpIssues(
        outcome.file,
        outcome.mcpDocument,
        'mcpServers',
        dirname(outcome.file),
        outcome.locate,
      )),
    );
  const file = outcome.ok ? outcome.loaded.file : outcome.file;
  // entries that are valid but name no tool: warnings, which need the providers' tool names
  const warnings =
    outcome.ok && outcome.loaded.file && issues.length === 0
      ? [
          ...(await (await import('./variable-warnings.js')).unsetVariableWarnings(outcome.loaded)),
          ...(await (await import('./policy-pattern-warnings.js')).policyPatternWarnings(outcome.loaded)),
        ]
      : [];
  if (options.json) {
    writeJson(context.stdout, { file: file ?? null, valid: issues.length === 0, issues, warnings });
    return issues.length === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
  }
  const style = createStyle(context.stdout);
  for (const warning of warnings)
    writeLine(context.stdout, `${style.yellow('warning:')} ${formatIssue(warning, context.cwd)}`);
  if (issues.length > 0) {
    for (const issue of issues) writeLine(context.stdout, formatIssue(issue, context.cwd));
    writeLine(context.stdout, style.red(`${issues.length} problem(s) in ${file}`));
    return EXIT_CODES.usage;
  }
  if (!outcome.ok) return EXIT_CODES.usage;
  const { loaded } = outcome;
  if (!loaded.file) {
    writeLine(
      context.stdout,
      `no config file found in ${context.cwd}: using the defaults (read-only built-in tools on this directory)`,
    );
    return EXIT_CODES.ok;
  }
  const { config } = loaded;
  const mcpCount = loaded.mcpDocument
    ? Object.keys((loaded.mcpDocument as Record<string, object>)[loaded.mcpKey ?? 'mcpServers'] ?? {}).length
    : 0;
  const parts = [
    `${mcpCount} MCP server(s)`,
    `${config.rest?.length ?? 0} REST provider(s)`,
    `${config.openapi?.length ?? 0} OpenAPI import(s)`,
    config.builtin ? 'built-in tools' : 'no built-in tools',
  ];
  const kind = loaded.kind === 'mcp' ? ` (an MCP client file, read as ${loaded.mcpKey})` : '';
  writeLine(context.stdout, `${style.green('valid:')} ${loaded.file}${kind}: ${parts.join(', ')}`);
  return EXIT_CODES.ok;
}
