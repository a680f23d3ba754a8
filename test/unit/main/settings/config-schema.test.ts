import { describe, expect, it } from 'vitest';
import { CONFIG_VERSION, configSchema, defaultConfig, defaultRestartKey, isSecretKeyName } from '../../../../src/shared/config/config-schema.ts';

describe('config schema defaults (FEATURES.md / WenZi)', () => {
  const d = defaultConfig();

  it('has the WenZi defaults where FEATURES.md marks them', () => {
    expect(d.version).toBe(CONFIG_VERSION);
    expect(d.audio.max_recording_seconds).toBe(120);
    expect(d.audio.silence_rms).toBe(20);
    expect(d.audio.vad_enabled).toBe(false);
    expect(d.ai_enhance.enabled).toBe(false);
    expect(d.ai_enhance.mode).toBe('proofread');
    expect(d.ai_enhance.providers).toEqual({ ollama: { kind: 'ollama', base_url: 'http://localhost:11434/v1', models: ['qwen2.5:7b'] } });
    expect(d.ai_enhance.default_provider).toBe('ollama');
    expect(d.ai_enhance.default_model).toBe('qwen2.5:7b');
    expect(d.ai_enhance.thinking).toBe(false);
    expect(d.ai_enhance.timeout).toBe(10);
    expect(d.ai_enhance.connection_timeout).toBe(10);
    expect(d.ai_enhance.max_retries).toBe(2);
    expect(d.ai_enhance.conversation_history).toEqual({ enabled: false, max_entries: 10, refresh_threshold: 50, max_history_chars: 6000, share_proper_nouns: true });
    expect(d.ai_enhance.vocabulary.max_llm_entries).toBe(5);
    expect(d.ai_enhance.vocabulary.max_dynamic_hotwords).toBe(10);
    expect(d.ai_enhance.vocabulary.max_hotword_chars).toBe(200);
    expect(d.ai_enhance.context_note).toBe('');
    expect(d.output.preview).toBe(true);
    expect(d.output.restore_clipboard).toBe(true);
    expect(d.history).toEqual({ enabled: true, retention_days: 0 });
  });

  it('has the Tingxie defaults for settings WenZi lacks', () => {
    expect(d.ui.language).toBe('system');
    expect(d.recording.mode).toBe('hold');
    expect(d.asr.engine).toBe('local');
    // Recognition follows the app language : whisper's detection guesses wrong on short clips.
    expect(d.asr.language).toBe('follow-ui');
    expect(d.asr.temperature).toBe(0);
    expect(d.asr.local.idle_unload_minutes).toBe(5);
    expect(d.asr.local.models_mirror).toMatch(/^https:\/\//);
    expect(d.app.launch_at_login).toBe(false);
    expect(d.secrets.plaintext_consent).toBe(false);
    expect(d.output.method).toBe('paste');
  });

  it('returns a fresh object each time', () => {
    const a = defaultConfig();
    a.hotkeys.f5 = true;
    expect(defaultConfig().hotkeys).toEqual({ alt_r: true });
  });
});

describe('refresh_threshold forcing rule', () => {
  const ch = (v: object) => configSchema.parse({ ai_enhance: { conversation_history: v } }).ai_enhance.conversation_history;

  it('forces refresh_threshold ≤ max_entries to max_entries × 5', () => {
    expect(ch({ max_entries: 10, refresh_threshold: 10 }).refresh_threshold).toBe(50);
    expect(ch({ max_entries: 20, refresh_threshold: 5 }).refresh_threshold).toBe(100);
    expect(ch({ max_entries: 50 }).refresh_threshold).toBe(250); // the default 50 is ≤ 50 too
  });

  it('keeps a refresh_threshold above max_entries', () => {
    expect(ch({ max_entries: 10, refresh_threshold: 11 }).refresh_threshold).toBe(11);
    expect(ch({ max_entries: 60 }).refresh_threshold).toBe(300);
  });
});

describe('secret key names', () => {
  it('flags API-key fields but not hotkey names', () => {
    expect(isSecretKeyName('api_key')).toBe(true);
    expect(isSecretKeyName('API_KEY')).toBe(true);
    expect(isSecretKeyName('token')).toBe(true);
    expect(isSecretKeyName('cancel_key')).toBe(false);
    expect(isSecretKeyName('max_output_tokens')).toBe(false);
  });
});

describe('recording keys: platform defaults, WenZi compatibility, none', () => {
  it('restart is WenZi’s cmd on macOS and none on Windows/Linux (cmd is the Win/Super key there)', () => {
    expect(defaultRestartKey('darwin')).toBe('cmd');
    expect(defaultRestartKey('win32')).toBe('');
    expect(defaultRestartKey('linux')).toBe('');
    expect(defaultConfig().feedback.restart_key).toBe(defaultRestartKey(process.platform));
  });

  it('cancel stays WenZi’s space (Escape cancels as well, always); the mode keys are ← and →', () => {
    const d = defaultConfig();
    expect(d.feedback.cancel_key).toBe('space');
    expect([d.recording.prev_mode_key, d.recording.next_mode_key]).toEqual(['left', 'right']);
  });

  it('a WenZi feedback section is read as is, and an empty recording key means none', () => {
    const wenzi = configSchema.parse({ feedback: { restart_key: 'cmd', cancel_key: 'space' } });
    expect(wenzi.feedback).toMatchObject({ restart_key: 'cmd', cancel_key: 'space' });
    const none = configSchema.parse({ feedback: { restart_key: '', cancel_key: '' }, recording: { prev_mode_key: '' } });
    expect([none.feedback.restart_key, none.feedback.cancel_key, none.recording.prev_mode_key]).toEqual(['', '', '']);
    expect(configSchema.safeParse({ feedback: { restart_key: 'not a key!' } }).success).toBe(false);
  });

  it('asr.language takes follow-ui, zh-en, auto and language codes (WenZi writes codes and auto)', () => {
    for (const language of ['follow-ui', 'zh-en', 'auto', 'zh', 'en', 'yue', 'zh-TW']) expect(configSchema.safeParse({ asr: { language } }).success, language).toBe(true);
    for (const language of ['follow', 'zh+en', 'Chinese', '']) expect(configSchema.safeParse({ asr: { language } }).success, language).toBe(false);
  });
});
