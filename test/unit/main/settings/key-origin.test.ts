import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Enhancer, providerFromConfig } from '../../../../src/main/enhance/enhancer.ts';
import { defaultConfig, type Config } from '../../../../src/shared/config/config-schema.ts';
import { keyOriginResolver, originOf } from '../../../../src/main/settings/key-origin.ts';
import { SecretStore, type SafeStorageLike } from '../../../../src/main/settings/secrets.ts';
import { startOpenAiTestServer } from '../../../helpers/openai-test-server.ts';
import { testSettings } from '../enhance/enhance-fixture.ts';
import { tempDir } from './helpers.ts';

/* A stored key is bound to its provider's origin; re-pointing base_url asks for the key again. */

const KEY = 'sk-bound-0123456789abcdefghij';
const plainOk: SafeStorageLike = { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' };

function withProvider(base: Config, url: string): Config {
  return { ...base, ai_enhance: { ...base.ai_enhance, providers: { ...base.ai_enhance.providers, deepseek: { kind: 'deepseek', base_url: url, models: ['deepseek-chat'] } } } };
}

async function open(file: string): Promise<SecretStore> {
  return SecretStore.open({ file, safeStorage: plainOk, plaintextConsent: true, platform: 'linux' });
}

describe('origin of a URL', () => {
  it('is scheme + host + port', () => {
    expect(originOf('https://api.deepseek.com/v1')).toBe('https://api.deepseek.com');
    expect(originOf('https://api.deepseek.com:443/beta')).toBe('https://api.deepseek.com');
    expect(originOf('http://localhost:11434/v1')).toBe('http://localhost:11434');
    expect(originOf('not a url')).toBeUndefined();
  });
});

describe('SecretStore: keys bound to their server', () => {
  it('a key stored before binding existed is bound to the current origin at first load (saved)', async () => {
    const file = path.join(tempDir(), 'secrets.json');
    fs.writeFileSync(file, JSON.stringify({ version: 1, secrets: { 'provider:deepseek': { enc: 'plain', data: KEY } } }));
    let config = withProvider(defaultConfig(), 'https://api.deepseek.com/v1');
    const store = await open(file);
    await store.bindOrigins(keyOriginResolver(() => config));
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).secrets['provider:deepseek'].origin).toBe('https://api.deepseek.com');
    expect(store.get('provider:deepseek')).toBe(KEY);

    // A new path on the same server is fine; another host is not.
    config = withProvider(config, 'https://api.deepseek.com/beta');
    expect(store.get('provider:deepseek')).toBe(KEY);
    config = withProvider(config, 'https://collector.example.net/v1');
    expect(store.get('provider:deepseek')).toBeUndefined();
    expect(store.mismatch('provider:deepseek')).toEqual({ savedFor: 'https://api.deepseek.com', now: 'https://collector.example.net' });
    expect(store.list()).toEqual([{ name: 'provider:deepseek', persisted: true, savedFor: 'https://api.deepseek.com' }]);

    // The binding survives a restart: a fresh store with the new URL still withholds the key.
    const restarted = await open(file);
    await restarted.bindOrigins(keyOriginResolver(() => config));
    expect(restarted.get('provider:deepseek')).toBeUndefined();

    // Entering the key again binds it to the new server.
    await restarted.set('provider:deepseek', 'sk-new-0123456789abcdefghijkl');
    expect(restarted.get('provider:deepseek')).toBe('sk-new-0123456789abcdefghijkl');
    expect(restarted.list()[0]).toEqual({ name: 'provider:deepseek', persisted: true });
  });

  it('the enhancer refuses with a clear reason and sends nothing to the new host', async () => {
    const server = await startOpenAiTestServer();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
    try {
      const file = path.join(dir, 'secrets.json');
      let config = withProvider(defaultConfig(), 'https://api.deepseek.com/v1');
      const store = await open(file);
      await store.bindOrigins(keyOriginResolver(() => config));
      await store.set('provider:deepseek', KEY);
      config = withProvider(config, `${server.baseURL}`);
      const provider = providerFromConfig(config, store, 'deepseek');
      expect(provider?.apiKey).toBeUndefined();
      expect(provider?.keyMismatch?.savedFor).toBe('https://api.deepseek.com');
      const enhancer = await Enhancer.open({ dataDir: dir, provider: () => provider }, testSettings({ providerId: 'deepseek' }));
      const r = await enhancer.enhance({ text: '今天天气很好' });
      expect(r.status).not.toBe('enhanced');
      expect(r.text).toBe('今天天气很好');
      expect(r.reason?.code).toBe('auth');
      expect(r.reason?.message).toMatch(/entered for https:\/\/api\.deepseek\.com.*enter it again in Settings/);
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('adopt() keeps a key found in plain text on disk (0600) even without keyring or consent; set() does not', async () => {
    const file = path.join(tempDir(), 'secrets.json');
    const memory = await SecretStore.open({ file, safeStorage: plainOk, plaintextConsent: false, platform: 'linux' });
    expect(memory.backend).toBe('memory');
    await memory.set('provider:typed', 'typed-key-0123456789');
    expect(fs.existsSync(file)).toBe(false);
    await memory.adopt('provider:found', 'found-key-0123456789');
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('found-key-0123456789');
    expect(text).not.toContain('typed-key-0123456789');
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});
