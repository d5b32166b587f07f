import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileTokenStore, defaultTokenFilePath } from '../src/index.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const fake = (): string => `t_${Math.random().toString(36).slice(2)}`;

describe('the token file', () => {
  it('defaults under XDG_CONFIG_HOME, else ~/.config, and TOOLPLANE_TOKEN_FILE overrides both', () => {
    expect(defaultTokenFilePath({ XDG_CONFIG_HOME: '/x/conf' })).toBe('/x/conf/toolplane/mcp-tokens.json');
    expect(defaultTokenFilePath({ HOME: '/h' })).toMatch(/\.config\/toolplane\/mcp-tokens\.json$/);
    expect(defaultTokenFilePath({ TOOLPLANE_TOKEN_FILE: '/t.json', XDG_CONFIG_HOME: '/x' })).toBe('/t.json');
  });

  it('is written with mode 0600, keeps every server of concurrent writes and leaves no temporary file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'tp-tokens-'));
    const store = createFileTokenStore({ path: join(dir, 'toolplane', 'mcp-tokens.json') });
    const names = Array.from({ length: 8 }, (_, i) => `server${i}`);
    await Promise.all(
      names.map((name) =>
        store.write(name, {
          serverUrl: `http://127.0.0.1/${name}`,
          tokens: { access_token: fake(), token_type: 'Bearer' },
        }),
      ),
    );
    expect((await stat(store.path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'toolplane'))).mode & 0o777).toBe(0o700);
    for (const name of names) expect((await store.read(name))?.serverUrl).toBe(`http://127.0.0.1/${name}`);
    await store.remove('server3');
    expect(await store.read('server3')).toBeUndefined();
    expect(await readdir(join(dir, 'toolplane'))).toEqual(['mcp-tokens.json']);
    expect(JSON.parse(await readFile(store.path, 'utf8')).version).toBe(1);
  });

  it('a file that is not JSON is refused with CONFIG_INVALID saying to log in again', async () => {
    dir = await mkdtemp(join(tmpdir(), 'tp-tokens-'));
    const path = join(dir, 'tokens.json');
    await writeFile(path, '{not json');
    await expect(createFileTokenStore({ path }).read('x')).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });

  it('a server named like an Object.prototype key reads as not logged in', async () => {
    dir = await mkdtemp(join(tmpdir(), 'tp-tokens-'));
    const store = createFileTokenStore({ path: join(dir, 'tokens.json') });
    await store.write('a', { serverUrl: 'http://127.0.0.1/a' });
    expect(await store.read('constructor')).toBeUndefined();
    expect(await store.read('__proto__')).toBeUndefined();
  });
});
