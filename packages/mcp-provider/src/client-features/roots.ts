import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolError } from '@toolplane/core';
import type { McpRoot, McpRootsSource } from './types.js';

/** A workspace folder: a path, or a path and the name servers see. */
export type McpRootFolder = string | { readonly path: string; readonly name?: string };

/** Roots that can change: servers are sent `notifications/roots/list_changed` on `set`. */
export interface McpRoots extends McpRootsSource {
  /** Replaces the folders; every open session tells its server the list changed. */
  set(folders: readonly McpRootFolder[]): void;
}

const MAX_ROOTS = 1000;

function rootsOf(folders: readonly McpRootFolder[]): McpRoot[] {
  if (!Array.isArray(folders) || folders.length > MAX_ROOTS)
    throw new ToolError('CONFIG_INVALID', `roots must be a list of at most ${MAX_ROOTS} folder paths`);
  return folders.map((folder, index) => {
    const path = typeof folder === 'string' ? folder : folder?.path;
    if (typeof path !== 'string' || path === '')
      throw new ToolError('CONFIG_INVALID', `roots[${index}] must be a folder path (a non-empty string)`);
    const absolute = resolve(path);
    const name = typeof folder === 'string' ? undefined : folder.name;
    return { uri: pathToFileURL(absolute).href, name: name ?? (basename(absolute) || absolute) };
  });
}

/**
 * The workspace folders offered to MCP servers as roots (`file://` URIs, relative paths
 * resolved now). Give it to several providers; `set()` tells each open session.
 *
 * @example
 * const roots = createMcpRoots([process.cwd()]);
 * const provider = createMcpProvider('fs', config, { roots });
 * roots.set([process.cwd(), '/srv/shared']); // the server is sent notifications/roots/list_changed
 */
export function createMcpRoots(folders: readonly McpRootFolder[]): McpRoots {
  let roots = rootsOf(folders);
  const listeners = new Set<() => void>();
  return {
    list: () => roots,
    set(next) {
      roots = rootsOf(next);
      for (const listener of [...listeners]) {
        try {
          listener();
        } catch {
          // a session that cannot be told must not keep the others from hearing
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
