import { isAbsolute, resolve } from 'node:path';
import type { ApprovalChannel } from '@toolplane/core';
import type { ElicitationChannel } from '@toolplane/mcp-provider';
import type { LoadedConfig } from '../config/load.js';
import type { McpClientOptions } from '../runtime/providers.js';
import { GatewayClientBridge } from './client-bridge.js';

/**
 * The gateway's answers to its upstream servers: the bridge to its own client, a sampler on the
 * config's `model:` endpoint (when one is set), and the workspace as the roots.
 */
export async function gatewayClientOptions(
  loaded: LoadedConfig,
  terminal: { approvals?: ApprovalChannel | undefined; elicit?: ElicitationChannel['elicit'] | undefined },
): Promise<{ bridge: GatewayClientBridge; mcpClient: McpClientOptions }> {
  const { createOpenAiSampler } = await import('@toolplane/mcp-provider');
  let sampler: ReturnType<typeof createOpenAiSampler> | undefined;
  if (loaded.config.model?.baseUrl || process.env.OPENAI_BASE_URL) {
    try {
      const { resolveEndpoint } = await import('../agent/endpoint.js');
      const endpoint = await resolveEndpoint(loaded, { rootHasModel: false });
      if (endpoint.model)
        sampler = createOpenAiSampler({
          baseUrl: endpoint.baseUrl,
          model: endpoint.model,
          ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}),
        });
    } catch {
      // no usable endpoint: sampling goes to the gateway's client or is refused, saying why
    }
  }
  const bridge = new GatewayClientBridge({
    ...(sampler ? { sampler } : {}),
    ...(terminal.approvals ? { approvals: terminal.approvals } : {}),
    ...(terminal.elicit ? { elicit: terminal.elicit } : {}),
    ...(loaded.file ? { configFile: loaded.file } : {}),
  });
  const builtin = loaded.config.builtin;
  const workspace = builtin ? builtin.workspace : undefined;
  const root = workspace
    ? isAbsolute(workspace)
      ? workspace
      : resolve(loaded.directory, workspace)
    : loaded.directory;
  return {
    bridge,
    mcpClient: { elicitation: bridge.elicitation, sampling: bridge.sampling, roots: [root] },
  };
}
