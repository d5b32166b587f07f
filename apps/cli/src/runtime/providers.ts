import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { type ToolProvider, ToolError } from '@toolplane/core';
import type { LoadedConfig } from '../config/load.js';
import { configError } from '../output/cli-error.js';
import { withStartupTimeout } from './start-timeouts.js';
import type { StrayOutputLog } from './stray-output.js';
import { mcpLoadOptions } from '../config/mcp-load-options.js';
import {
  type ConfigVariable,
  openApiEntryVariables,
  restEntryVariables,
} from '../config/provider-variables.js';
import { withSharedHeaders } from './shared-headers.js';

/** A provider and where it came from in the config (for doctor and error messages). */
export interface ConfiguredProvider {
  readonly provider: ToolProvider;
  /** `mcpServers.github`, `rest[0]`, `openapi[1]`, `builtin`. */
  readonly source: string;
  /** Run after the provider closed: the built-in tools' sandbox goes with it. */
  readonly dispose?: () => Promise<void>;
  /** The environment variables its config entry reads (REST and OpenAPI), and where. */
  readonly variables?: readonly ConfigVariable[];
}

/** What the MCP client offers its servers (elicitation, sampling, roots): a gateway's bridge. */
export type McpClientOptions = Pick<
  import('@toolplane/mcp-provider').McpProviderOptions,
  'elicitation' | 'sampling' | 'roots'
>;

const READ_ONLY_TOOLS = ['read', 'list', 'glob', 'grep'] as const;

/**
 * Creates (does not start) every provider the config names. Provider packages load on demand.
 * `strayOutput` hears what the MCP servers write to stdout that is not JSON-RPC.
 */
export async function createProviders(
  loaded: LoadedConfig,
  strayOutput?: StrayOutputLog,
  mcpClient?: McpClientOptions,
): Promise<ConfiguredProvider[]> {
  const { config, directory } = loaded;
  const at = (path: string): string =>
    isAbsolute(path) || /^https?:\/\//.test(path) ? path : resolve(directory, path);
  const out: ConfiguredProvider[] = [];
  if (loaded.mcpDocument) {
    const { createMcpProviders, loadMcpConfig } = await import('@toolplane/mcp-provider');
    const mcp = await loadMcpConfig(loaded.mcpDocument, mcpLoadOptions(loaded.mcpDocument, directory));
    const key = loaded.mcpKey ?? 'mcpServers';
    const providers = createMcpProviders(withStartupTimeout(mcp, config.limits.startTimeoutMs), {
      ...(strayOutput ? { onEvent: strayOutput.onEvent } : {}),
      ...mcpClient,
      // OAuth tokens of `toolplane mcp login`; a server that needs a login fails with the command
      auth: await (await import('../auth/cli-auth.js')).cliAuth(),
    });
    for (const provider of providers) out.push({ provider, source: `${key}.${provider.namespace}` });
    // a server whose name the loader refuses (`__proto__`) gets no provider, not even a failed
    // one: it would be left out without a word while the command goes on
    const named = new Set(providers.map((provider) => provider.namespace));
    const dropped = mcp.problems.find((problem) => !named.has(problem.server));
    if (dropped)
      throw configError(
        `invalid config: ${key}.${dropped.server}: ${dropped.message}`,
        'run `toolplane config validate` to see every problem',
      );
  }
  if (config.rest?.length || config.openapi?.length) {
    const rest = await import('@toolplane/rest-openapi');
    for (const [index, entry] of (config.rest ?? []).entries()) {
      const tools =
        entry.file === undefined ? (entry.tools ?? {}) : await rest.readToolConfig(at(entry.file));
      const provider = rest.createRestProvider({
        namespace: entry.namespace,
        tools: withSharedHeaders(tools, entry.headers) as Parameters<
          typeof rest.createRestProvider
        >[0]['tools'],
        ...(entry.timeoutMs ? { timeoutMs: entry.timeoutMs } : {}),
        ...(entry.maxResponseBytes ? { maxResponseBytes: entry.maxResponseBytes } : {}),
      });
      out.push({
        provider,
        source: `rest[${index}]`,
        variables: restEntryVariables(config, index, entry.file === undefined ? undefined : tools),
      });
    }
    for (const [index, entry] of (config.openapi ?? []).entries()) {
      const provider = rest.createOpenApiProvider(at(entry.source), {
        namespace: entry.namespace,
        ...(entry.include ? { include: entry.include } : {}),
        ...(entry.exclude ? { exclude: entry.exclude } : {}),
        ...(entry.baseUrl ? { baseUrl: entry.baseUrl } : {}),
        ...(entry.server !== undefined ? { server: entry.server } : {}),
        ...(entry.envPrefix ? { envPrefix: entry.envPrefix } : {}),
        ...(entry.credentials ? { credentials: entry.credentials } : {}),
        ...(entry.allowedTokenOrigins ? { allowedTokenOrigins: entry.allowedTokenOrigins } : {}),
        ...(entry.timeoutMs ? { timeoutMs: entry.timeoutMs } : {}),
        // the importer pins these headers on every operation (and asks the model for none of them)
        ...(entry.headers ? { toolDefaults: { headers: entry.headers } } : {}),
      });
      out.push({ provider, source: `openapi[${index}]`, variables: openApiEntryVariables(config, index) });
    }
  }
  if (config.builtin) {
    const { BUILTIN_TOOL_NAMES, createBuiltinProvider } = await import('@toolplane/builtin-fs-shell');
    const { tools, workspace, envAllowList, protectedPaths } = config.builtin;
    // a file as the workspace would start, then fail every call with "does not exist"
    if (statSync(at(workspace), { throwIfNoEntry: false })?.isDirectory() === false)
      throw new ToolError(
        'CONFIG_INVALID',
        `builtin.workspace ${workspace} is a file, not a directory: give the folder the built-in tools work in`,
      );
    const section = config.sandbox;
    const sandbox =
      section && section.kind !== 'host'
        ? await (await import('../sandbox/create-executor.js')).createConfiguredSandbox(
            { ...section, kind: section.kind },
            at(workspace),
          )
        : undefined;
    const provider = createBuiltinProvider({
      workspace: at(workspace),
      ...(sandbox ? { executor: sandbox.executor } : {}),
      // a list is checked against BUILTIN_TOOL_NAMES when the config is read (config/builtin-names.ts)
      tools:
        tools === 'read-only'
          ? READ_ONLY_TOOLS
          : tools === 'all'
            ? BUILTIN_TOOL_NAMES
            : (tools as (typeof BUILTIN_TOOL_NAMES)[number][]),
      ...(envAllowList ? { envAllowList } : {}),
      ...(protectedPaths ? { protectedPaths } : {}),
    });
    out.push({ provider, source: 'builtin', ...(sandbox ? { dispose: () => sandbox.close() } : {}) });
  }
  return out;
}
