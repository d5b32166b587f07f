import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ToolError } from '@toolplane/core';
import { defaultTokenFilePath } from './token-file-path.js';
import type { McpAuthRecord, McpTokenStore } from './token-store.js';

interface TokenFile {
  readonly version: 1;
  readonly servers: Record<string, McpAuthRecord>;
}

async function readTokenFile(path: string): Promise<TokenFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, servers: {} };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ToolError(
      'CONFIG_INVALID',
      `token file ${path} is not JSON: delete it and log in again (toolplane mcp login <server>)`,
      { details: { path } },
    );
  }
  const servers = (parsed as { servers?: unknown })?.servers;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new ToolError(
      'CONFIG_INVALID',
      `token file ${path} has no "servers" object: delete it and log in again`,
      { details: { path } },
    );
  }
  const records: Record<string, McpAuthRecord> = Object.create(null);
  for (const [name, record] of Object.entries(servers)) records[name] = record as McpAuthRecord;
  return { version: 1, servers: records };
}

/** Writes beside the file, then renames over it: a reader sees the old file or the new one. */
async function writeAtomically(path: string, file: TokenFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    await chmod(temporary, 0o600);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * A token store in one JSON file (mode 0600, directory 0700), written atomically; writes of one
 * process are queued so two saves never lose each other. Default path: {@link defaultTokenFilePath}.
 */
export function createFileTokenStore(options: { readonly path?: string } = {}): McpTokenStore & {
  readonly path: string;
} {
  const path = options.path ?? defaultTokenFilePath();
  let queue: Promise<unknown> = Promise.resolve();
  const change = (edit: (file: TokenFile) => void): Promise<void> => {
    const next = queue.then(async () => {
      const file = await readTokenFile(path);
      edit(file);
      await writeAtomically(path, file);
    });
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    path,
    read: async (server) => {
      await queue;
      const file = await readTokenFile(path);
      return Object.hasOwn(file.servers, server) ? file.servers[server] : undefined;
    },
    write: (server, record) =>
      change((file) => {
        file.servers[server] = record;
      }),
    remove: (server) =>
      change((file) => {
        delete file.servers[server];
      }),
  };
}
