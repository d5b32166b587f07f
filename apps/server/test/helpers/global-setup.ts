import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/storage/open.js';
import { findPostgresBin, startPostgresCluster } from './postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** The throwaway cluster as JSON, or why there is none. */
    postgres: { host: string; port: number; user: string; password: string } | { unavailable: string };
  }
}

/**
 * Creates one migrated embedded database for the whole run (the first open of a directory
 * takes seconds, a copy of this one opens in well under one) and starts one throwaway
 * PostgreSQL cluster; each test server gets its own database in it.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const root = mkdtempSync(join(tmpdir(), 'toolplane-server-template-'));
  const dataDir = join(root, 'db');
  const db = await openDatabase({ dataDir });
  await db.close();
  project.provide('pgliteTemplate', dataDir);
  const bin = findPostgresBin();
  let stop = (): void => {};
  if (!bin) {
    const why = 'no PostgreSQL binaries under /usr/lib/postgresql/*/bin: run `bash tooling/ci/postgres.sh`';
    if (process.env.CI === 'true') throw new Error(`CI=true and ${why}`);
    project.provide('postgres', { unavailable: why });
  } else {
    const cluster = await startPostgresCluster(bin);
    stop = () => cluster.stop();
    project.provide('postgres', {
      host: cluster.host,
      port: cluster.port,
      user: cluster.user,
      password: cluster.password,
    });
  }
  return () => {
    stop();
    rmSync(root, { recursive: true, force: true });
  };
}
