import { join } from 'node:path';
import type { LoadedConfig } from '../config/load.js';

/**
 * What a call the policy asked about, refused because nobody could be asked, says to do: the
 * config file actually loaded and the setting that allows the tool there. An MCP client's own
 * file (Claude Desktop's, Cursor's) has no place for a policy, so it says to write one that has.
 */
export function approvalHint(loaded: LoadedConfig): (tool: string) => string {
  const nobody =
    "Nobody could be asked: the gateway's client did not declare elicitation and no terminal is attached.";
  return (tool) => {
    const rule = JSON.stringify(tool);
    if (loaded.kind === 'toolplane' && loaded.file)
      return `${nobody} To allow it without asking, add ${rule} to policy.autoAllow (or the command to policy.commands.allow) in ${loaded.file}, the config file this gateway loaded.`;
    if (loaded.kind === 'mcp' && loaded.file)
      return `${nobody} The config file loaded, ${loaded.file}, is an MCP client's file: toolplane reads only its "${loaded.mcpKey ?? 'mcpServers'}" there. To allow it without asking, write a toolplane.config.json with those servers and "policy": { "autoAllow": [${rule}] }, and start the gateway with --config pointing at it.`;
    return `${nobody} No config file was loaded (none in ${loaded.directory}). To allow it without asking, create ${join(loaded.directory, 'toolplane.config.json')} with "policy": { "autoAllow": [${rule}] }.`;
  };
}
