import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** A throwaway PostgreSQL cluster on a loopback port, started from Debian's binaries. */
export interface PostgresCluster {
  readonly host: string;
  readonly port: number;
  readonly socketDir: string;
  readonly user: string;
  readonly password: string;
  /** Stops the postmaster at once (`pg_ctl stop -m immediate`), keeping the data. */
  pause(): void;
  /** Starts it again on the same port and data. */
  resume(): void;
  stop(): void;
}

/** Where Debian keeps the server binaries (`/usr/lib/postgresql/<version>/bin`), newest first. */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a cluster in a temporary directory. initdb refuses to run as root, so as root the
 * binaries run as the `postgres` user. Host connections need a password (scram-sha-256), so
 * the tests prove the server authenticates for real.
 */
export async function startPostgresCluster(bin: string): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'toolplane-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString()),
      Number(execFileSync('id', ['-g', 'postgres']).toString()),
    );
  const run = (command: string, args: string[]): void => {
    const result = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], {
          encoding: 'utf8',
          cwd: dir,
        })
      : spawnSync(join(bin, command), args, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0)
      throw new Error(`${command} failed: ${result.stderr || result.stdout || result.error}`);
  };
  const data = join(dir, 'data');
  run('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--no-locale',
  ]);
  const port = await freePort();
  const start = (): void =>
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  start();
  const password = randomBytes(18).toString('base64url');
  const admin = new pg.Client({ host: dir, port, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query(`CREATE USER tp WITH PASSWORD '${password}' CREATEDB`);
  await admin.end();
  return {
    host: '127.0.0.1',
    port,
    socketDir: dir,
    user: 'tp',
    password,
    pause() {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    },
    resume: start,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Creates an empty database owned by the test user; answers its URL. */
export async function createTestDatabase(
  cluster: Pick<PostgresCluster, 'host' | 'port' | 'user' | 'password'>,
): Promise<string> {
  const name = `tp_${randomBytes(6).toString('hex')}`;
  const base = `postgres://${cluster.user}:${encodeURIComponent(cluster.password)}@${cluster.host}:${cluster.port}`;
  const client = new pg.Client({ connectionString: `${base}/postgres` });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  return `${base}/${name}`;
}
