import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseSecretBackend, SecretStore, type SafeStorageLike } from '../../../../src/main/settings/secrets.ts';
import { tempDir } from './helpers.ts';

/**
 * A stand-in for Electron's safeStorage: there is no Electron binary here, so nothing real can encrypt with
 * an OS keyring. A reversible XOR + marker keeps the test honest about "the plaintext never hits the disk".
 */
function fakeSafeStorage(opts: { available?: boolean; backend?: string; key?: number } = {}): SafeStorageLike {
  const k = opts.key ?? 0x5a;
  return {
    isEncryptionAvailable: () => opts.available ?? true,
    encryptString: (s) => Buffer.concat([Buffer.from('v10'), Buffer.from(s, 'utf8').map((b) => b ^ k)]),
    decryptString: (b) => {
      if (b.subarray(0, 3).toString() !== 'v10') throw new Error('bad ciphertext');
      const out = Buffer.from(b.subarray(3).map((x) => x ^ k));
      if (k !== (opts.key ?? 0x5a)) throw new Error('wrong key');
      return out.toString('utf8');
    },
    getSelectedStorageBackend: () => opts.backend ?? 'gnome_libsecret',
  };
}

const KEY = 'sk-live-THIS-IS-SECRET-0123456789';

describe('chooseSecretBackend', () => {
  it('uses the keyring where one exists', () => {
    expect(chooseSecretBackend(fakeSafeStorage(), 'darwin', false)).toBe('os-keyring');
    expect(chooseSecretBackend(fakeSafeStorage({ backend: 'kwallet5' }), 'linux', false)).toBe('os-keyring');
  });
  it('treats basic_text / unknown on Linux as no keyring', () => {
    expect(chooseSecretBackend(fakeSafeStorage({ backend: 'basic_text' }), 'linux', false)).toBe('memory');
    expect(chooseSecretBackend(fakeSafeStorage({ backend: 'unknown' }), 'linux', true)).toBe('plaintext-consented');
  });
  it('falls back when encryption is unavailable or throws', () => {
    expect(chooseSecretBackend(fakeSafeStorage({ available: false }), 'win32', false)).toBe('memory');
    const throwing: SafeStorageLike = { ...fakeSafeStorage(), isEncryptionAvailable: () => { throw new Error('not ready'); } };
    expect(chooseSecretBackend(throwing, 'darwin', false)).toBe('memory');
  });
});

describe('SecretStore', () => {
  it('encrypts at rest with the keyring: the key never appears in the file bytes', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'secrets.json');
    const s = await SecretStore.open({ file, safeStorage: fakeSafeStorage(), plaintextConsent: false, platform: 'linux' });
    expect(s.backend).toBe('os-keyring');
    await s.set('provider:openai', KEY);
    const bytes = fs.readFileSync(file);
    expect(bytes.includes(Buffer.from(KEY))).toBe(false);
    expect(bytes.includes(Buffer.from(KEY.slice(8, 20)))).toBe(false);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(s.list()).toEqual([{ name: 'provider:openai', persisted: true }]);
    const again = await SecretStore.open({ file, safeStorage: fakeSafeStorage(), plaintextConsent: false, platform: 'linux' });
    expect(again.get('provider:openai')).toBe(KEY);
    await again.delete('provider:openai');
    expect(again.has('provider:openai')).toBe(false);
    const third = await SecretStore.open({ file, safeStorage: fakeSafeStorage(), plaintextConsent: false, platform: 'linux' });
    expect(third.list()).toEqual([]);
  });

  it('keeps keys in memory only without a keyring and without consent', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'secrets.json');
    const s = await SecretStore.open({ file, safeStorage: fakeSafeStorage({ backend: 'basic_text' }), plaintextConsent: false, platform: 'linux' });
    expect(s.backend).toBe('memory');
    await s.set('asr:remote', KEY);
    expect(s.get('asr:remote')).toBe(KEY);
    expect(s.list()).toEqual([{ name: 'asr:remote', persisted: false }]);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('writes plain text (mode 0600) only with consent', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'secrets.json');
    const s = await SecretStore.open({ file, safeStorage: fakeSafeStorage({ available: false }), plaintextConsent: true, platform: 'linux' });
    expect(s.backend).toBe('plaintext-consented');
    await s.set('provider:groq', KEY);
    expect(fs.readFileSync(file, 'utf8')).toContain(KEY);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = await SecretStore.open({ file, safeStorage: fakeSafeStorage({ available: false }), plaintextConsent: true, platform: 'linux' });
    expect(again.get('provider:groq')).toBe(KEY);
  });

  it.each([
    ['not JSON', '{"secrets": {"provider:x": '],
    ['wrong shape', '[1,2,3]'],
    ['binary', Buffer.from([0, 1, 2, 0xff, 0xfe])],
  ])('a corrupt file (%s) is reported and backed up, never a crash', async (_n, content) => {
    const dir = tempDir();
    const file = path.join(dir, 'secrets.json');
    fs.writeFileSync(file, content);
    const s = await SecretStore.open({ file, safeStorage: fakeSafeStorage(), plaintextConsent: false, platform: 'darwin' });
    expect(s.list()).toEqual([]);
    expect(s.loadIssues.join(' ')).toMatch(/corrupt|unexpected shape/);
    const backups = fs.readdirSync(dir).filter((f) => f.startsWith('secrets.json.bad-'));
    expect(backups).toHaveLength(1);
    await s.set('provider:x', KEY); // the store still works
    expect((await SecretStore.open({ file, safeStorage: fakeSafeStorage(), plaintextConsent: false, platform: 'darwin' })).get('provider:x')).toBe(KEY);
  });

  it('an entry that cannot be decrypted is reported, kept on disk, and the others still load', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'secrets.json');
    const s = await SecretStore.open({ file, safeStorage: fakeSafeStorage(), plaintextConsent: false, platform: 'darwin' });
    await s.set('provider:a', 'key-a');
    const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { secrets: Record<string, unknown> };
    doc.secrets['provider:b'] = { enc: 'safe-storage', data: Buffer.from('garbage').toString('base64') };
    doc.secrets['bad name!'] = { enc: 'plain', data: 'x' };
    fs.writeFileSync(file, JSON.stringify(doc));
    const again = await SecretStore.open({ file, safeStorage: fakeSafeStorage(), plaintextConsent: false, platform: 'darwin' });
    expect(again.get('provider:a')).toBe('key-a');
    expect(again.has('provider:b')).toBe(false);
    expect(again.loadIssues.some((i) => i.includes('provider:b'))).toBe(true);
    expect(again.loadIssues.some((i) => i.includes('malformed'))).toBe(true);
    await again.set('provider:c', 'key-c');
    const after = JSON.parse(fs.readFileSync(file, 'utf8')) as { secrets: Record<string, unknown> };
    expect(Object.keys(after.secrets).sort()).toEqual(['provider:a', 'provider:b', 'provider:c']);
  });

  it('rejects bad names and empty values', async () => {
    const s = await SecretStore.open({ file: path.join(tempDir(), 'secrets.json'), safeStorage: fakeSafeStorage(), plaintextConsent: false, platform: 'darwin' });
    await expect(s.set('openai', KEY)).rejects.toThrow(/invalid secret name/);
    await expect(s.set('provider:x', '')).rejects.toThrow(/non-empty/);
    expect(s.list()).toEqual([]);
  });
});
