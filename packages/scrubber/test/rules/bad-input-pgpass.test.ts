import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, type Socket, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

const run = promisify(execFile);
const fake = createFakeSource();
const scrubber = createScrubber();
const marker = '[REDACTED:password]';
const password = `${fake.chars(ALPHABETS.alnum, 18)}#7`;

/**
 * A loopback server that speaks just enough of PostgreSQL's protocol to ask for a cleartext
 * password and record it, then refuse the login. Proves that psql read the password file.
 */
function startPasswordRecorder(received: string[]) {
  const server = createServer((socket: Socket) => {
    let buffer = Buffer.alloc(0);
    let started = false;
    socket.on('data', (data) => {
      buffer = Buffer.concat([buffer, data]);
      if (!started && buffer.length >= 4 && buffer.length >= buffer.readInt32BE(0)) {
        started = true;
        buffer = buffer.subarray(buffer.readInt32BE(0));
        // AuthenticationCleartextPassword
        socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]));
      }
      if (started && buffer.length >= 5 && buffer[0] === 0x70 && buffer.length >= 1 + buffer.readInt32BE(1)) {
        received.push(buffer.subarray(5, buffer.readInt32BE(1)).toString('utf8').replace(/\0$/, ''));
        const fields = Buffer.from('SFATAL\0C28P01\0Mpassword authentication failed\0\0');
        const error = Buffer.alloc(5);
        error.write('E');
        error.writeInt32BE(4 + fields.length, 1);
        socket.end(Buffer.concat([error, fields]));
      }
    });
    socket.on('error', () => {});
  });
  return new Promise<{ port: number; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    );
  });
}

describe('.pgpass', () => {
  let directory = '';
  let recorder: { port: number; close: () => Promise<void> };
  const received: string[] = [];
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'scrubber-pgpass-'));
    recorder = await startPasswordRecorder(received);
  });
  afterAll(async () => {
    await recorder.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('redacts the password of a real password file that psql logged in with', async () => {
    const file = join(directory, '.pgpass');
    const other = `${fake.chars(ALPHABETS.alnum, 12)}:x`;
    const content = [
      '# hostname:port:database:username:password',
      `127.0.0.1:${recorder.port}:app:deploy:${password}`,
      `*:*:*:replicator:${other}`,
      '',
    ].join('\n');
    await writeFile(file, content);
    await chmod(file, 0o600);
    let psqlRan = true;
    try {
      await run(
        'psql',
        ['-h', '127.0.0.1', '-p', String(recorder.port), '-U', 'deploy', '-d', 'app', '-c', 'select 1'],
        {
          env: {
            ...process.env,
            PGPASSFILE: file,
            PGSSLMODE: 'disable',
            PGGSSENCMODE: 'disable',
            PGCONNECT_TIMEOUT: '20',
          },
        },
      );
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && process.env.CI !== 'true') {
        psqlRan = false;
        console.warn('skipped the psql login: psql is not installed');
      } else
        expect(String((error as { stderr?: string }).stderr)).toContain('password authentication failed');
    }
    // psql sent the password it read from the file: the file is a working password file.
    if (psqlRan) expect(received).toEqual([password]);
    const { stdout } = await run('cat', [file]);
    const scrubbed = scrubber.scrubText(stdout);
    expect(scrubbed).toBe(
      [
        '# hostname:port:database:username:password',
        `127.0.0.1:${recorder.port}:app:deploy:${marker}`,
        `*:*:*:replicator:${marker}`,
        '',
      ].join('\n'),
    );
    // The same file as a read tool's structured result.
    const value = scrubber.scrubValue({ path: file, content: await readFile(file, 'utf8') });
    expect(JSON.stringify(value)).not.toContain(password);
    expect(JSON.stringify(value)).not.toContain(other);
  });

  it('redacts escaped, quoted, indented and Windows lines, and entries written by a command', () => {
    for (const [text, expected] of [
      [`db\\:1:5432:app\\:v2:deploy:${password}\r\n`, `db\\:1:5432:app\\:v2:deploy:${marker}\r\n`],
      [
        `echo "db:5432:app:deploy:${password}" >> ~/.pgpass`,
        `echo "db:5432:app:deploy:${marker}" >> ~/.pgpass`,
      ],
      [`    db.internal:5432:*:app:${password}\n`, `    db.internal:5432:*:app:${marker}\n`],
      [`localhost:5432:app:deploy:${password}  \n`, `localhost:5432:app:deploy:${marker}  \n`],
    ])
      expect(scrubber.scrubText(text as string), text).toBe(expected);
  });

  it('leaves colon-separated output that is not a password file alone', () => {
    for (const text of [
      'main.c:12:5: error: expected ;',
      'src/index.ts:10:3 - error TS2322',
      'root:x:0:0:root:/root:/bin/bash',
      'postgres:x:105:112:PostgreSQL administrator,,,:/var/lib/postgresql:/bin/bash',
      '2026-11-22T13:28:04.123Z:INFO:server:started',
      '00:1a:2b:3c:4d:5e',
      '13:28:04:120 frame dropped',
      'localhost:5432:app:deploy:$PGPASSWORD',
      'fe80::1:2:3:4',
      'README.md:12:see the table',
      // Cache and queue keys that begin a line: a port below 1024 is no database server's.
      'user:42:profile:alice:avatar',
      'session:7:user:bob:expires_at\nuser:108:profile:carol:avatar_url\n',
      'job:00443:queue:mail:attempts',
      'shard:99999:tenant:acme:settings',
      // redis-cli lists keys numbered and quoted.
      '1) "user:4242:profile:alice:avatar"\n2) "user:4243:profile:bob:avatar"',
    ])
      expect(scrubber.scrub(text).findings, text).toEqual([]);
  });
});
