import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore, ConfigValidationError } from '../../../../src/main/settings/config-store.ts';
import { CONFIG_VERSION, defaultConfig } from '../../../../src/shared/config/config-schema.ts';
import { tempDir } from './helpers.ts';

async function openWith(text: string | Buffer): Promise<{ dir: string; store: ConfigStore }> {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'config.json'), text);
  return { dir, store: await ConfigStore.open({ dataDir: dir }) };
}

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function backups(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => f.startsWith('config.json.'));
}

/** A WenZi config.json as WenZi writes it (keys from its DEFAULT_CONFIG), plus keys Tingxie does not know. */
const WENZI_CONFIG = {
  hotkeys: { fn: true, f5: false },
  feedback: { restart_key: 'cmd', cancel_key: 'space', sound_enabled: false, sound_volume: 0.4, visual_indicator: true, show_device_name: false },
  audio: { sample_rate: 16000, block_ms: 20, device: null, max_session_bytes: 20971520, max_recording_seconds: 90, silence_rms: 25 },
  asr: { backend: 'funasr', use_vad: true, use_punc: true, language: 'zh', temperature: 0.0, providers: {} },
  ai_enhance: {
    enabled: true,
    mode: 'translate_en',
    providers: {
      ollama: { base_url: 'http://localhost:11434/v1', api_key: 'ollama', models: ['qwen2.5:7b'] },
      deepseek: { base_url: 'https://api.deepseek.com/v1', api_key: 'sk-wenzi-secret-123', models: ['deepseek-chat'], extra_body: { foo: 1 } },
    },
    thinking: false,
    timeout: 30,
    connection_timeout: 10,
    max_retries: 2,
    max_output_tokens: 4096,
    input_context: 'basic',
    conversation_history: { enabled: true, max_entries: 20, refresh_threshold: 10 },
  },
  output: { preview: false, method: 'auto', append_newline: false },
  clipboard_enhance: { hotkey: 'ctrl+cmd+v' },
  keychain: { enabled: false },
  update_check: { interval_hours: 6 },
  ui: { settings_last_tab: 'ai' },
  logging: { level: 'DEBUG' },
};

describe('ConfigStore: fresh folder', () => {
  it('gives the defaults, no issues, and creates config.json', async () => {
    const dir = tempDir();
    const store = await ConfigStore.open({ dataDir: path.join(dir, 'nested') });
    expect(store.get()).toEqual(defaultConfig());
    expect(store.loadIssues).toEqual([]);
    expect(store.backupPath).toBeNull();
    expect(readJson(store.path)).toEqual(defaultConfig());
    expect(Object.isFrozen(store.get().ai_enhance.conversation_history)).toBe(true);
  });

  it('readOnly creates nothing', async () => {
    const dir = tempDir();
    const store = await ConfigStore.open({ dataDir: dir, readOnly: true });
    expect(store.get().output.preview).toBe(true);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('ConfigStore: WenZi config.json', () => {
  it('understands WenZi keys, migrates v0, moves API keys out, keeps unknown keys on save', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(WENZI_CONFIG, null, 4));
    const kept: string[] = [];
    const store = await ConfigStore.open({ dataDir: dir, keepSecrets: async (found) => void kept.push(...found.map((f) => f.name)) });
    expect(kept).toEqual(['provider:ollama', 'provider:deepseek']);
    const c = store.get();
    expect(c.hotkeys).toEqual({ fn: true, f5: false });
    expect(c.feedback.sound_enabled).toBe(false);
    expect(c.audio.max_recording_seconds).toBe(90);
    expect(c.audio.silence_rms).toBe(25);
    expect(c.asr.language).toBe('zh');
    expect(c.ai_enhance.enabled).toBe(true);
    expect(c.ai_enhance.mode).toBe('translate_en');
    expect(c.ai_enhance.timeout).toBe(30);
    expect(c.ai_enhance.providers.deepseek).toEqual({ kind: 'deepseek', base_url: 'https://api.deepseek.com/v1', models: ['deepseek-chat'], extra_body: { foo: 1 } });
    expect(c.ai_enhance.providers.ollama?.kind).toBe('ollama'); // migration 1 → 2: the kind is recognised once
    expect(c.ai_enhance.conversation_history).toEqual({ enabled: true, max_entries: 20, refresh_threshold: 100, max_history_chars: 6000, share_proper_nouns: true });
    expect(c.output.preview).toBe(false);
    expect(c.output.method).toBe('paste'); // migration 0 → 1
    expect(c.version).toBe(CONFIG_VERSION);

    // API keys: offered to the secret store, reported, gone from config.json, the original kept as a backup.
    expect(store.foundSecrets.map((s) => [s.name, s.value])).toEqual([['provider:ollama', 'ollama'], ['provider:deepseek', 'sk-wenzi-secret-123']]);
    expect(store.loadIssues.map((i) => i.path)).toEqual(['ai_enhance.providers.ollama.api_key', 'ai_enhance.providers.deepseek.api_key']);
    expect(store.backupPath).not.toBeNull();
    // The backup is the original minus its keys (they are in the secret store now).
    const providers = { ollama: { ...WENZI_CONFIG.ai_enhance.providers.ollama, api_key: '***' }, deepseek: { ...WENZI_CONFIG.ai_enhance.providers.deepseek, api_key: '***' } };
    expect(readJson(store.backupPath as string)).toEqual({ ...WENZI_CONFIG, ai_enhance: { ...WENZI_CONFIG.ai_enhance, providers } });
    const onDisk = fs.readFileSync(store.path, 'utf8');
    expect(onDisk).not.toContain('sk-wenzi-secret-123');
    expect(onDisk).not.toContain('api_key');

    await store.set('ui.language', 'zh');
    const saved = readJson(store.path) as typeof WENZI_CONFIG & { ui: { language: string } };
    expect(saved.clipboard_enhance).toEqual({ hotkey: 'ctrl+cmd+v' });
    expect(saved.keychain).toEqual({ enabled: false });
    expect(saved.update_check).toEqual({ interval_hours: 6 });
    expect(saved.logging).toEqual({ level: 'DEBUG' });
    expect(saved.ui).toEqual({ settings_last_tab: 'ai', language: 'zh' });
    expect(saved.feedback.show_device_name).toBe(false);
    expect(saved.audio.block_ms).toBe(20);
    expect(saved.asr.backend).toBe('funasr');
    expect(saved.ai_enhance.providers.deepseek.extra_body).toEqual({ foo: 1 });

    // Reopening the saved file is clean: no issues, no new backup.
    const again = await ConfigStore.open({ dataDir: dir });
    expect(again.loadIssues).toEqual([]);
    expect(again.backupPath).toBeNull();
    expect(again.get()).toEqual(store.get());
  });
});

describe('ConfigStore: JSONC', () => {
  it('accepts comments and trailing commas without reporting anything', async () => {
    const text = `// my config
{
  /* block */ "output": { "preview": false, },
  "ai_enhance": { "conversation_history": { "enabled": true, }, }, // trailing
}`;
    const { store } = await openWith(text);
    expect(store.loadIssues).toEqual([]);
    expect(store.get().output.preview).toBe(false);
    expect(store.get().ai_enhance.conversation_history.enabled).toBe(true);
  });
});

describe('ConfigStore: mangled files never stop the app', () => {
  it('resets only the bad fields, says which, and keeps the original as a backup', async () => {
    const text = JSON.stringify({
      version: 1,
      output: { preview: 'yes', restore_clipboard: false },
      audio: { max_recording_seconds: -5, silence_rms: 'NaN', pre_roll_ms: 'HUGE' },
      ai_enhance: { timeout: 'Infinity', max_retries: 2.5, conversation_history: { enabled: true, max_entries: 'ten' }, providers: { bad: { base_url: 'ftp://x' }, good: { base_url: 'https://api.example.com/v1', models: ['m', 7] } } },
      hotkeys: { fn: 'on', f3: true },
      ui: { language: 'klingon' },
    }).replace('"HUGE"', '1e999'); // a JSON number that overflows to Infinity
    const { dir, store } = await openWith(text);
    const c = store.get();
    expect(c.output.preview).toBe(true);
    expect(c.output.restore_clipboard).toBe(false);
    expect(c.audio.max_recording_seconds).toBe(120);
    expect(c.audio.silence_rms).toBe(20);
    expect(c.audio.pre_roll_ms).toBe(300);
    expect(c.ai_enhance.timeout).toBe(10);
    expect(c.ai_enhance.max_retries).toBe(2);
    expect(c.ai_enhance.conversation_history.enabled).toBe(true);
    expect(c.ai_enhance.conversation_history.max_entries).toBe(10);
    expect(c.ai_enhance.providers.bad).toBeUndefined();
    expect(c.ai_enhance.providers.good).toEqual({ kind: 'other', base_url: 'https://api.example.com/v1', models: [] });
    expect(c.hotkeys).toEqual({ f3: true });
    expect(c.ui.language).toBe('system');
    const paths = store.loadIssues.map((i) => i.path).sort();
    expect(paths).toEqual([
      'ai_enhance.conversation_history.max_entries', 'ai_enhance.max_retries', 'ai_enhance.providers.bad',
      'ai_enhance.providers.good.models', 'ai_enhance.timeout', 'audio.max_recording_seconds', 'audio.pre_roll_ms',
      'audio.silence_rms', 'hotkeys.fn', 'output.preview', 'ui.language',
    ]);
    for (const i of store.loadIssues) expect(i.message.length).toBeGreaterThan(10);
    expect(store.backupPath).toMatch(/config\.json\.bad-/);
    expect(fs.readFileSync(store.backupPath as string, 'utf8')).toBe(text);
    expect(backups(dir)).toHaveLength(1);
    // The repaired file is valid and reopens clean.
    const again = await ConfigStore.open({ dataDir: dir });
    expect(again.loadIssues).toEqual([]);
    expect(again.get()).toEqual(c);
  });

  it('drops __proto__ / constructor keys without touching any prototype', async () => {
    const text = '{"__proto__": {"polluted": true}, "output": {"__proto__": {"preview": false}, "constructor": {"x": 1}, "preview": false}}';
    const { store } = await openWith(text);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(store.get().output)).toBe(Object.prototype);
    expect(store.get().output.preview).toBe(false);
    expect(store.loadIssues.map((i) => i.path).sort()).toEqual(['__proto__', 'output.__proto__', 'output.constructor']);
    expect(store.backupPath).not.toBeNull();
    expect(fs.readFileSync(store.path, 'utf8')).not.toContain('__proto__');
  });

  it('keeps the readable fields of a truncated file', async () => {
    const full = JSON.stringify({ output: { preview: false }, ai_enhance: { enabled: true, mode: 'proofread' } }, null, 2);
    const { store } = await openWith(full.slice(0, full.indexOf('"mode"') + 4));
    expect(store.get().output.preview).toBe(false);
    expect(store.get().ai_enhance.enabled).toBe(true);
    expect(store.loadIssues[0]?.message).toMatch(/damaged/);
    expect(store.backupPath).not.toBeNull();
    expect(JSON.parse(fs.readFileSync(store.path, 'utf8')).output.preview).toBe(false);
  });

  it.each([
    ['binary garbage', Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80, 0x81, 0xc3, 0x28])],
    ['an empty file', ''],
    ['not an object', '[1, 2, 3]'],
    ['a bare string', '"hello"'],
    ['unparseable text', '{{{{ not json ::::'],
  ])('%s → all defaults, an issue and a backup', async (_name, content) => {
    const { dir, store } = await openWith(content);
    expect(store.get()).toEqual(defaultConfig());
    expect(store.loadIssues.length).toBeGreaterThan(0);
    expect(store.loadIssues.some((i) => i.path === '')).toBe(true);
    expect(store.backupPath).not.toBeNull();
    expect(fs.readFileSync(store.backupPath as string)).toEqual(Buffer.isBuffer(content) ? content : Buffer.from(content));
    expect(readJson(store.path)).toEqual(defaultConfig());
    expect(backups(dir)).toHaveLength(1);
  });

  it('does not throw or overwrite when config.json cannot be read (a directory)', async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'config.json'));
    const store = await ConfigStore.open({ dataDir: dir });
    expect(store.get()).toEqual(defaultConfig());
    expect(store.loadIssues[0]?.message).toMatch(/cannot read/);
    expect(fs.statSync(path.join(dir, 'config.json')).isDirectory()).toBe(true);
  });

  it('reports a file from a newer version and keeps its unknown keys', async () => {
    const { store } = await openWith(JSON.stringify({ version: 99, future: { thing: 1 }, output: { preview: false } }));
    expect(store.get().version).toBe(99);
    expect(store.loadIssues.map((i) => i.path)).toEqual(['version']);
    expect((readJson(store.path) as { future: unknown }).future).toEqual({ thing: 1 });
  });
});

describe('ConfigStore: migrations', () => {
  it.each([
    ['absent', {}],
    ['0', { version: 0 }],
    ['garbage', { version: 'one' }],
  ])('version %s is migrated to the current version with a backup named after it', async (_n, extra) => {
    const original = JSON.stringify({ ...extra, output: { method: 'auto' } });
    const { store } = await openWith(original);
    expect(store.get().version).toBe(CONFIG_VERSION);
    expect(store.get().output.method).toBe('paste');
    expect(store.backupPath).not.toBeNull();
    expect(fs.readFileSync(store.backupPath as string, 'utf8')).toBe(original);
    expect(store.backupPath).toMatch(new RegExp(`config\\.json\\.pre-v${CONFIG_VERSION}-`));
    expect((readJson(store.path) as { version: number }).version).toBe(CONFIG_VERSION);
  });

  it('a version-1 file gets each provider kind from its base URL once, written back with a backup', async () => {
    const original = JSON.stringify({
      version: 1,
      ai_enhance: { providers: { ds: { base_url: 'https://api.deepseek.com/v1' }, local: { base_url: 'http://192.168.1.5:11434/v1' }, gw: { base_url: 'https://gw.example.com/v1' }, mine: { kind: 'groq', base_url: 'https://proxy.example.com/v1' } } },
    });
    const { dir, store } = await openWith(original);
    expect(Object.fromEntries(Object.entries(store.get().ai_enhance.providers).map(([id, p]) => [id, p.kind]))).toEqual({ ds: 'deepseek', local: 'ollama', gw: 'other', mine: 'groq' });
    expect(store.backupPath).toMatch(new RegExp(`config\\.json\\.pre-v${CONFIG_VERSION}-`));
    expect((readJson(store.path) as { ai_enhance: { providers: { ds: { kind: string } } } }).ai_enhance.providers.ds.kind).toBe('deepseek');
    // Written back: the next start reads the kind, nothing is recognised again and nothing is rewritten.
    const again = await ConfigStore.open({ dataDir: dir });
    expect(again.backupPath).toBeNull();
    expect(again.get().ai_enhance.providers.gw?.kind).toBe('other');
  });

  it('a current-version file is not rewritten', async () => {
    const text = `{ "version": ${CONFIG_VERSION}, // keep my comment\n "output": { "preview": false } }`;
    const { store } = await openWith(text);
    expect(store.backupPath).toBeNull();
    expect(fs.readFileSync(store.path, 'utf8')).toBe(text);
  });

  it('asr.language "auto" saved by an older Tingxie becomes follow-ui (written back); a WenZi "auto" stays', async () => {
    const older = await openWith(JSON.stringify({ version: 2, asr: { engine: 'local', language: 'auto' }, output: { preview: false } }));
    expect(older.store.get().asr.language).toBe('follow-ui');
    expect((readJson(older.store.path) as { asr: { language: string } }).asr.language).toBe('follow-ui');
    expect(older.store.get().output.preview).toBe(false);
    const chosen = await openWith(JSON.stringify({ version: 2, asr: { language: 'en' } }));
    expect(chosen.store.get().asr.language).toBe('en');
    const wenzi = await openWith(JSON.stringify({ asr: { backend: 'funasr', language: 'auto' } }));
    expect(wenzi.store.get().asr.language).toBe('auto');
  });
});

describe('ConfigStore.set', () => {
  it('validates, saves atomically and emits a change event', async () => {
    const dir = tempDir();
    const store = await ConfigStore.open({ dataDir: dir });
    const events: string[] = [];
    const off = store.onChange((e) => events.push(`${e.keyPath}=${JSON.stringify(e.config.ai_enhance.conversation_history.max_entries)}`));
    const next = await store.set('ai_enhance.conversation_history.max_entries', 20);
    expect(next.ai_enhance.conversation_history.max_entries).toBe(20);
    expect(store.getAt('ai_enhance.conversation_history.max_entries')).toBe(20);
    expect(events).toEqual(['ai_enhance.conversation_history.max_entries=20']);
    off();
    await store.set('output.preview', false);
    expect(events).toHaveLength(1);
    const reopened = await ConfigStore.open({ dataDir: dir });
    expect(reopened.get().ai_enhance.conversation_history.max_entries).toBe(20);
    expect(reopened.get().output.preview).toBe(false);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('accepts whole objects and new provider entries', async () => {
    const store = await ConfigStore.open({ dataDir: tempDir() });
    await store.set('ai_enhance.providers.groq', { base_url: 'https://api.groq.com/openai/v1', models: ['llama'] });
    expect(store.get().ai_enhance.providers.groq?.models).toEqual(['llama']);
    await store.set('hotkeys', { f9: true });
    expect(store.get().hotkeys).toEqual({ f9: true });
  });

  it.each([
    ['unknown key', 'nope.nothing', 1, /unknown setting/],
    ['unknown leaf', 'output.preview.deeper', true, /unknown setting/],
    ['wrong type', 'output.preview', 'yes', /invalid value/],
    ['negative number', 'audio.max_recording_seconds', -1, /invalid value/],
    ['NaN', 'audio.silence_rms', Number.NaN, /invalid value/],
    ['bad enum', 'ui.language', 'fr', /invalid value/],
    ['API key path', 'ai_enhance.providers.ollama.api_key', 'sk-1', /secret/],
    ['API key inside an object', 'ai_enhance.providers.x', { base_url: 'https://a.b/v1', api_key: 'sk-1' }, /secret/],
    ['__proto__ path', '__proto__.polluted', true, /reserved/],
    ['__proto__ inside a value', 'hotkeys', JSON.parse('{"__proto__": {"x": true}}'), /reserved/],
    ['empty key', '', 1, /empty/],
    ['undefined value', 'output.preview', undefined, /JSON/],
  ])('rejects %s with ConfigValidationError and changes nothing', async (_n, key, value, msg) => {
    const store = await ConfigStore.open({ dataDir: tempDir() });
    const before = fs.readFileSync(store.path, 'utf8');
    const err = await store.set(key, value).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigValidationError);
    expect((err as ConfigValidationError).message).toMatch(msg);
    expect((err as ConfigValidationError).issues.length).toBeGreaterThan(0);
    expect(fs.readFileSync(store.path, 'utf8')).toBe(before);
    expect(store.get()).toEqual(defaultConfig());
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('getAt throws for an unknown key', async () => {
    const store = await ConfigStore.open({ dataDir: tempDir() });
    expect(() => store.getAt('no.such.key')).toThrow(ConfigValidationError);
    expect(store.getAt('ai_enhance.providers.ollama.base_url')).toBe('http://localhost:11434/v1');
  });

  it('serializes concurrent sets: all land, in call order, file always valid', async () => {
    const dir = tempDir();
    const store = await ConfigStore.open({ dataDir: dir });
    const seen: number[] = [];
    store.onChange((e) => seen.push(e.config.ai_enhance.max_output_tokens));
    const values = Array.from({ length: 25 }, (_, i) => i + 1);
    await Promise.all([
      ...values.map((v) => store.set('ai_enhance.max_output_tokens', v)),
      store.set('output.preview', false),
      store.set('audio.silence_rms', -1).catch(() => 'rejected'),
      store.set('ui.language', 'en'),
    ]);
    expect(seen.slice(0, 25)).toEqual(values);
    const disk = readJson(store.path) as { ai_enhance: { max_output_tokens: number }; output: { preview: boolean }; ui: { language: string } };
    expect(disk.ai_enhance.max_output_tokens).toBe(25);
    expect(disk.output.preview).toBe(false);
    expect(disk.ui.language).toBe('en');
  });

  it('a listener that throws does not break the save', async () => {
    const store = await ConfigStore.open({ dataDir: tempDir() });
    const seen: string[] = [];
    store.onChange(() => {
      throw new Error('boom');
    });
    store.onChange((e) => seen.push(e.keyPath));
    const origError = console.error;
    console.error = () => undefined;
    try {
      await store.set('output.preview', false);
    } finally {
      console.error = origError;
    }
    expect(seen).toEqual(['output.preview']);
  });
});

describe('atomic save: crash leftovers', () => {
  it('a leftover temp file (crash before rename) does not affect the next load or save', async () => {
    const dir = tempDir();
    const first = await ConfigStore.open({ dataDir: dir });
    await first.set('output.preview', false);
    // Simulate a crash mid-save: a half-written temp file next to the real one.
    fs.writeFileSync(path.join(dir, '.config.json.12345.abcdef.tmp'), '{"output": {"prev');
    const second = await ConfigStore.open({ dataDir: dir });
    expect(second.loadIssues).toEqual([]);
    expect(second.get().output.preview).toBe(false);
    await second.set('output.preview', true);
    expect((readJson(second.path) as { output: { preview: boolean } }).output.preview).toBe(true);
  });
});

describe('ConfigStore: provider ids', () => {
  it('a provider with an invalid id is dropped with an issue, the others kept', async () => {
    const { store } = await openWith(JSON.stringify({ version: 1, ai_enhance: { providers: { 'has space': { base_url: 'https://a.b/v1' }, ok: { base_url: 'https://c.d/v1' } } } }));
    expect(Object.keys(store.get().ai_enhance.providers)).toEqual(['ok']);
    expect(store.loadIssues.map((i) => i.path)).toEqual(['ai_enhance.providers.has space']);
  });
});
