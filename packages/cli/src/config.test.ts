import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAppError } from '@wolfpack/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configPath, findLogin, readConfig, withLogin, withoutLogin, writeConfig } from './config.js';

describe('configPath', () => {
  it('prefers WOLFPACK_CONFIG, then XDG_CONFIG_HOME, then ~/.config', () => {
    expect(configPath({ WOLFPACK_CONFIG: '/x/c.json', XDG_CONFIG_HOME: '/xdg' }, '/home/a')).toBe('/x/c.json');
    expect(configPath({ XDG_CONFIG_HOME: '/xdg' }, '/home/a')).toBe('/xdg/wolfpack/config.json');
    expect(configPath({}, '/home/a')).toBe('/home/a/.config/wolfpack/config.json');
  });

  it('ignores an empty or relative XDG_CONFIG_HOME, as the XDG spec asks', () => {
    expect(configPath({ XDG_CONFIG_HOME: '' }, '/home/a')).toBe('/home/a/.config/wolfpack/config.json');
    expect(configPath({ XDG_CONFIG_HOME: 'rel' }, '/home/a')).toBe('/home/a/.config/wolfpack/config.json');
  });
});

describe('config file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wolfpack-config-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a missing file as no logins', async () => {
    expect(await readConfig(join(dir, 'nope', 'config.json'))).toEqual({ logins: [] });
  });

  it('creates the file 0600 in a new 0700 directory and reads back what it wrote', async () => {
    const path = join(dir, 'wolfpack', 'config.json');
    const config = withLogin({ logins: [] }, { server: 'http://a:1', token: 't1', username: 'ann' });
    await writeConfig(path, config);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'wolfpack'))).mode & 0o777).toBe(0o700);
    expect(await readConfig(path)).toEqual(config);
  });

  it('tightens a file that was world-readable when it rewrites it, and leaves no temporary files', async () => {
    const path = join(dir, 'config.json');
    await writeFile(path, '{"logins":[]}', { mode: 0o644 });
    await writeConfig(path, { logins: [] });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['config.json']);
  });

  it('keeps fields it does not know, so an older CLI does not erase a newer one’s settings', async () => {
    const path = join(dir, 'config.json');
    await writeFile(path, JSON.stringify({ logins: [], future: { x: 1 } }));
    await writeConfig(path, withLogin(await readConfig(path), { server: 'http://a:1', token: 't', username: 'u' }));
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ future: { x: 1 } });
  });

  it('explains a broken file in one sentence that says what to do', async () => {
    const path = join(dir, 'config.json');
    await writeFile(path, '{not json');
    const error: unknown = await readConfig(path).catch((e: unknown) => e);
    expect(isAppError(error)).toBe(true);
    expect((error as Error).message).toBe(`The Wolfpack config file at ${path} is not valid JSON. Fix it or delete it and log in again.`);

    await writeFile(path, '{"logins":[{"server":1}]}');
    await expect(readConfig(path)).rejects.toThrow(/not in the expected shape/);
  });
});

describe('logins', () => {
  const a = { server: 'http://a:1', token: 'ta', username: 'ann' };
  const b = { server: 'http://b:2', token: 'tb', username: 'bob' };

  it('keeps one login per server and remembers the last server logged in to', () => {
    let config = withLogin(withLogin({ logins: [] }, a), b);
    expect(config.lastServer).toBe(b.server);
    config = withLogin(config, { ...a, token: 'ta2' });
    expect(config.logins).toHaveLength(2);
    expect(findLogin(config, a.server)?.token).toBe('ta2');
    expect(config.lastServer).toBe(a.server);
  });

  it('logs out of one server only and keeps the last server as the default', () => {
    const config = withoutLogin(withLogin(withLogin({ logins: [] }, a), b), b.server);
    expect(findLogin(config, b.server)).toBeUndefined();
    expect(findLogin(config, a.server)).toEqual(a);
    expect(config.lastServer).toBe(b.server);
  });
});
