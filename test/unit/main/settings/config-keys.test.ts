import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore, ConfigValidationError } from '../../../../src/main/settings/config-store.ts';
import { adoptFoundSecrets } from '../../../../src/main/settings/found-secrets.ts';
import { SecretStore, type SafeStorageLike } from '../../../../src/main/settings/secrets.ts';
import { tempDir } from './helpers.ts';

/* Keys in config.json go to the secret store before anything is backed up; backups are private and pruned. */

const KEY = 'sk-wenzi-0123456789abcdefghij';
const NO_KEYRING: SafeStorageLike = { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' };
const mode = (f: string): number => fs.statSync(f).mode & 0o777;
const posix = process.platform !== 'win32';

function wenziConfig(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    api_key: 'top-level-key-abcdefghijk',
    ai_enhance: { providers: { deepseek: { base_url: 'https://api.deepseek.com/v1', api_key: KEY, models: ['deepseek-chat'] } } },
    ...extra,
  }, null, 2);
}

function withConfig(text: string): { dir: string; file: string } {
  const dir = tempDir();
  const file = path.join(dir, 'config.json');
  fs.writeFileSync(file, text, { mode: 0o644 });
  return { dir, file };
}

describe('keys in config.json', () => {
  it('are in the secret store before any backup exists; the backup has no key, is 0600; config.json has no key', async () => {
    const { dir, file } = withConfig(wenziConfig());
    const secrets = await SecretStore.open({ file: path.join(dir, 'secrets.json'), safeStorage: NO_KEYRING, plaintextConsent: false, platform: 'linux' });
    const seenAtKeep: string[] = [];
    const store = await ConfigStore.open({
      dataDir: dir,
      keepSecrets: async (found, c) => {
        seenAtKeep.push(...fs.readdirSync(dir).filter((n) => n.startsWith('config.json.')));
        expect(fs.readFileSync(file, 'utf8')).toContain(KEY); // not rewritten yet
        await adoptFoundSecrets(found, c, secrets);
      },
    });
    expect(seenAtKeep).toEqual([]);
    expect(secrets.get('provider:deepseek')).toBe(KEY);
    expect(secrets.get('config:api_key')).toBe('top-level-key-abcdefghijk');
    // Without a keyring the adopted key is still on disk, in the private secrets.json (it was plain text in config.json already).
    const again = await SecretStore.open({ file: path.join(dir, 'secrets.json'), safeStorage: NO_KEYRING, plaintextConsent: false, platform: 'linux' });
    expect(again.get('provider:deepseek')).toBe(KEY);
    if (posix) expect(mode(path.join(dir, 'secrets.json'))).toBe(0o600);

    expect(fs.readFileSync(file, 'utf8')).not.toContain(KEY);
    const backup = store.backupPath as string;
    expect(backup).toMatch(/config\.json\.bad-/);
    const backupText = fs.readFileSync(backup, 'utf8');
    expect(backupText).not.toContain(KEY);
    expect(backupText).not.toContain('top-level-key-abcdefghijk');
    expect(JSON.parse(backupText).ai_enhance.providers.deepseek.base_url).toBe('https://api.deepseek.com/v1');
    if (posix) expect(mode(backup)).toBe(0o600);
  });

  it('without a secret store (or when it fails) the file is left exactly as it is, and set() refuses to drop the keys', async () => {
    const text = wenziConfig();
    const { dir, file } = withConfig(text);
    const store = await ConfigStore.open({ dataDir: dir });
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
    expect(store.secretsPending).toBe(true);
    expect(store.loadIssues.some((i) => /could not be moved to the secret store/.test(i.message))).toBe(true);
    await expect(store.set('output.preview', false)).rejects.toThrow(/not in the secret store yet/);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);

    const failing = await ConfigStore.open({ dataDir: dir, keepSecrets: () => Promise.reject(new Error(`disk full while writing ${KEY}`)) });
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
    const issue = failing.loadIssues.map((i) => i.message).join('\n');
    expect(issue).toMatch(/disk full/);
    expect(issue).not.toContain(KEY);
  });

  it('backups are pruned to the newest 3', async () => {
    const dir = tempDir();
    const old = ['2020-01-01T00-00-00-000Z', '2020-01-02T00-00-00-000Z', '2020-01-03T00-00-00-000Z', '2020-01-04T00-00-00-000Z'];
    for (const s of old) fs.writeFileSync(path.join(dir, `config.json.bad-${s}`), '{}');
    fs.writeFileSync(path.join(dir, 'config.json'), '{ "output": { "preview": "yes" } }');
    const store = await ConfigStore.open({ dataDir: dir });
    const left = fs.readdirSync(dir).filter((n) => n.startsWith('config.json.bad-')).sort();
    expect(left).toHaveLength(3);
    expect(left).toContain(path.basename(store.backupPath as string));
    expect(left).toEqual(expect.arrayContaining(['config.json.bad-2020-01-03T00-00-00-000Z', 'config.json.bad-2020-01-04T00-00-00-000Z']));
  });

  it('a key in a base URL or in extra_body is moved out at load, and the provider kept', async () => {
    const { dir, file } = withConfig(JSON.stringify({
      version: 2,
      ai_enhance: {
        providers: {
          a: { kind: 'other', base_url: 'https://me:url-key-0123456789@llm.example.com/v1', models: [] },
          b: { kind: 'other', base_url: 'https://gw.example.com/v1?key=query-key-0123456789&x=1', models: [], extra_body: { 'x-api-key': 'body-key-0123456789', top_p: 0.5 } },
        },
      },
      asr: { remote: { base_url: 'https://asr-user:asr-key-0123456789@asr.example.com/v1' } },
    }));
    const kept = new Map<string, string>();
    const store = await ConfigStore.open({ dataDir: dir, keepSecrets: async (found) => void found.forEach((f) => kept.set(f.name, f.value)) });
    const c = store.get();
    expect(c.ai_enhance.providers.a?.base_url).toBe('https://llm.example.com/v1');
    expect(c.ai_enhance.providers.b?.base_url).toBe('https://gw.example.com/v1?x=1');
    expect(c.ai_enhance.providers.b?.extra_body).toEqual({ top_p: 0.5 });
    expect(c.asr.remote.base_url).toBe('https://asr.example.com/v1');
    expect(kept.get('provider:a')).toBe('url-key-0123456789');
    expect(kept.get('provider:b')).toBe('query-key-0123456789');
    expect(kept.get('asr:remote')).toBe('asr-key-0123456789');
    expect([...kept.values()]).toContain('body-key-0123456789');
    const onDisk = fs.readFileSync(file, 'utf8') + fs.readFileSync(store.backupPath as string, 'utf8');
    for (const v of kept.values()) expect(onDisk).not.toContain(v);
  });
});

describe('keys typed into a URL or extra_body are refused with a clear message', () => {
  it.each([
    ['ai_enhance.providers.x', { base_url: 'https://user:sk-abc123456789xyz@api.example.com/v1' }, /must not contain an API key/],
    ['ai_enhance.providers.x', { base_url: 'https://api.example.com/v1?key=abc' }, /must not contain an API key/],
    ['asr.remote.base_url', 'https://u:p@asr.example.com/v1', /must not contain an API key/],
    ['ai_enhance.providers.x', { base_url: 'https://api.example.com/v1', extra_body: { 'x-api-key': 'abc' } }, /extra_body\.x-api-key/],
    ['ai_enhance.providers.x', { base_url: 'https://api.example.com/v1', extra_body: { headers: { Authorization: 'Bearer abcdefgh' } } }, /would store a secret/],
    ['ai_enhance.providers.x', { base_url: 'https://api.example.com/v1', extra_body: { note: 'Bearer abcdefgh', apiToken: 'x' } }, /must not contain an API key, token/],
  ])('%s = %j', async (key, value, message) => {
    const dir = tempDir();
    const store = await ConfigStore.open({ dataDir: dir });
    const before = fs.readFileSync(store.path, 'utf8');
    const err = await store.set(key, value).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigValidationError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).toMatch(/Settings → API key/);
    expect(fs.readFileSync(store.path, 'utf8')).toBe(before);
  });

  it('ordinary extra_body fields still save', async () => {
    const store = await ConfigStore.open({ dataDir: tempDir() });
    await store.set('ai_enhance.providers.x', { base_url: 'https://api.example.com/v1', extra_body: { max_tokens: 10, prompt_cache_key: 'dictation', thinking: { type: 'disabled' } } });
    expect(store.get().ai_enhance.providers.x?.extra_body).toEqual({ max_tokens: 10, prompt_cache_key: 'dictation', thinking: { type: 'disabled' } });
  });
});
