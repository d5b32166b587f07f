import type { McpUpstream } from '@toolplane/mcp-provider';
import type { Runtime } from '../runtime/assemble.js';

/** The MCP servers behind a runtime whose sessions a gateway can pass requests through to. */
export function upstreamsOf(runtime: Runtime): McpUpstream[] {
  const out: McpUpstream[] = [];
  for (const { provider } of runtime.providers) {
    const upstream = (provider as { upstream?: McpUpstream }).upstream;
    if (provider.kind === 'mcp' && upstream) out.push(upstream);
  }
  return out;
}

/** Which capabilities any upstream has (the gateway declares those, and only those). */
export function upstreamCapabilities(upstreams: readonly McpUpstream[]): {
  resources: boolean;
  subscribe: boolean;
  prompts: boolean;
  completions: boolean;
  logging: boolean;
} {
  const has = (key: string): boolean =>
    upstreams.some((upstream) => upstream.capabilities()[key] !== undefined);
  return {
    resources: has('resources'),
    subscribe: upstreams.some(
      (upstream) =>
        (upstream.capabilities().resources as { subscribe?: boolean } | undefined)?.subscribe === true,
    ),
    prompts: has('prompts'),
    completions: has('completions'),
    logging: has('logging'),
  };
}
