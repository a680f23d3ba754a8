import { z } from 'zod';
import { PROVIDER_KINDS } from '../provider-kinds.ts';
import { credentialPathIn, urlHoldsCredential } from '../redact.ts';
import { appRulesSchema, SUBMIT_KEYS } from './app-rules.ts';

/*
 * The one schema of config.json. Where WenZi (the seed design) has a setting, its key path and default are
 * kept so a WenZi config.json is understood as is: `hotkeys` (key → enabled), `feedback.*`,
 * `audio.max_recording_seconds`, `audio.silence_rms`, `asr.language`, `asr.temperature`,
 * `ai_enhance.{enabled,mode,providers,thinking,timeout,connection_timeout,max_retries,max_output_tokens,
 * input_context,conversation_history}`, `output.{preview,method,append_newline}`. Settings WenZi lacks live
 * in their own sections. Keys this schema does not know are not dropped: the store keeps them on save.
 *
 * Every object uses `.prefault({})` so a missing section is filled with its fields' defaults, which is what
 * makes field-level repair possible: delete a bad field and its default comes back.
 */

/** Config format version this build writes; migrations.ts lifts older files to it. */
export const CONFIG_VERSION = 4;

/** Names of keys that hold secrets; they are refused anywhere in config.json (secrets.ts stores them). */
export const SECRET_KEY_NAMES: ReadonlySet<string> = new Set([
  'api_key', 'apikey', 'api-key', 'secret', 'secret_key', 'client_secret', 'password', 'passwd', 'token',
  'access_token', 'auth_token', 'refresh_token', 'bearer', 'authorization',
]);

/** True when a config key name (last key-path segment) would hold a secret. */
export function isSecretKeyName(name: string): boolean {
  return SECRET_KEY_NAMES.has(name.toLowerCase());
}

const finiteNumber = z.number().refine(Number.isFinite, 'must be a finite number');
const int = (min: number, max: number) => z.number().int().min(min).max(max);
const nonNegInt = z.number().int().nonnegative();
/** A key name as WenZi spells them: fn, f1–f12, esc, space, cmd/ctrl/alt/shift (+ _r), combos like ctrl+cmd+1. */
const keyName = z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_+-]+$/, 'letters, digits, _ + - only');
/** A key that acts while recording (cancel, restart, previous/next mode), or '' for none. */
const recordingKey = z.union([z.literal(''), keyName]);

/**
 * The restart key's default per platform. macOS: WenZi's `cmd` (beside the space bar; tapped alone it
 * does nothing). Windows and Linux: none. `cmd` is the Win/Super key there (released alone it opens the
 * Start menu / the Activities overview), the key beside the space bar is Alt (tapped alone it opens the
 * menu bar on Windows), and a modifier tapped alone cannot be consumed (Electron's global shortcuts need
 * a non-modifier key), so any modifier default would leak to the OS; cancel and hold again does the same.
 */
export function defaultRestartKey(platform: string): string {
  return platform === 'darwin' ? 'cmd' : '';
}

/** Node's `process.platform` where the schema runs under Node (main, the CLI), '' where there is no Node (src/shared is environment-free). */
function hostPlatform(): string {
  return (globalThis as { readonly process?: { readonly platform?: string } }).process?.platform ?? '';
}

/** Why a URL holding a key is refused (the Settings editor says the same in the UI language). */
export const KEY_IN_URL = 'must not contain an API key (user:key@ or ?key= in the URL): remove it and enter the key in Settings → API key, which keeps it in the secret store';
/** Why request fields holding a key are refused. */
export const KEY_IN_EXTRA_BODY = 'must not contain an API key, token, authorization or secret: enter the key in Settings → API key, which keeps it in the secret store';

/** An Electron accelerator, e.g. CommandOrControl+Shift+Space. */
const accelerator = z.string().trim().min(1).max(100);
const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL')
  // A key in a URL would sit in config.json in plain text and travel in every log line naming the server.
  .refine((s) => !urlHoldsCredential(s), KEY_IN_URL);
/** Identifier for providers (also used in secret names `provider:<id>`). */
const providerId = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ - only (no dots: ids appear in key paths)');
/**
 * The recognition language (asr/recognition-language.ts maps it per engine): 'follow-ui' (the app's UI
 * language: Chinese → 'zh-en', English → 'en'), 'zh-en' (Chinese + English mixed), 'auto', or a language
 * code such as zh, en, yue, zh-TW (WenZi's values, `zh` by default there, are all codes or 'auto').
 */
const languageCode = z.string().regex(/^(auto|follow-ui|zh-en|[a-z]{2,3}(-[A-Za-z]{2,4})?)$/, "'follow-ui', 'zh-en', 'auto' or a language code like zh, en");

/** One OpenAI-compatible LLM provider (WenZi shape minus `api_key`, which lives in the secret store). */
export const providerSchema = z.object({
  /**
   * Which provider's documented rules build the request (src/main/enhance/providers/). Set explicitly; a config
   * written before it existed gets it once, from its base URL, in the v1 → v2 migration. 'other' sends only
   * the core OpenAI fields.
   */
  kind: z.enum(PROVIDER_KINDS).default('other'),
  base_url: httpUrl,
  models: z.array(z.string().trim().min(1).max(200)).max(200).default([]),
  /** Extra request body fields (WenZi's `extra_body`), added last; a field set to null is removed from the request. */
  extra_body: z
    .record(z.string(), z.unknown())
    .superRefine((body, ctx) => {
      const at = credentialPathIn(body);
      if (at !== null) ctx.addIssue({ code: 'custom', message: `${KEY_IN_EXTRA_BODY} (found at extra_body.${at})` });
    })
    .optional(),
});

/**
 * WenZi: `refresh_threshold` ≤ `max_entries` is forced to `max_entries × 5`, so a rebuild never happens on
 * every dictation. Applied here so every consumer reads the effective value.
 */
const conversationHistorySchema = z
  .object({
    enabled: z.boolean().default(false),
    max_entries: int(1, 1000).default(10),
    refresh_threshold: int(1, 100_000).default(50),
    max_history_chars: int(100, 1_000_000).default(6000),
    /**
     * Tingxie: older corrections of proper nouns (names, product names) made in one mode are retrieved in
     * every mode; other corrections stay in their mode, as WenZi keeps all of them. Confirmed records only.
     */
    share_proper_nouns: z.boolean().default(true),
  })
  .transform((c) => (c.refresh_threshold <= c.max_entries ? { ...c, refresh_threshold: c.max_entries * 5 } : c));

/** The config.json schema; `configSchema.parse({})` gives every default. */
export const configSchema = z.object({
  version: nonNegInt.default(CONFIG_VERSION),
  ui: z
    .object({
      language: z.enum(['system', 'zh', 'en']).default('system'),
    })
    .prefault({}),
  /** Hold-to-talk keys (WenZi: `"hotkeys": {"fn": true}`); several may be enabled at once. */
  hotkeys: z.record(keyName, z.boolean()).default({ alt_r: true }),
  /** Tingxie's additions around the hotkeys: toggle mode and the mode-switch keys. */
  recording: z
    .object({
      mode: z.enum(['hold', 'toggle']).default('hold'),
      toggle_shortcut: accelerator.default('CommandOrControl+Shift+Space'),
      /**
       * Global shortcut that enhances the selected text (the tray's "Enhance Selected Text"; WenZi's
       * clipboard-enhance key). '' = none, the default: every candidate combination is some app's shortcut.
       */
      enhance_selection_shortcut: z.union([z.literal(''), accelerator]).default(''),
      /**
       * The last dictation one key away (tray: Paste / Copy / Reopen last): paste it into the focused app,
       * copy it, reopen its preview. '' = none, the default, for the same reason as above.
       */
      paste_last_shortcut: z.union([z.literal(''), accelerator]).default(''),
      copy_last_shortcut: z.union([z.literal(''), accelerator]).default(''),
      reopen_last_shortcut: z.union([z.literal(''), accelerator]).default(''),
      prev_mode_key: recordingKey.default('left'),
      next_mode_key: recordingKey.default('right'),
    })
    .prefault({}),
  feedback: z
    .object({
      /** While recording (consumed then, hotkeys.ts): restart the take; '' = none. Default per platform, see defaultRestartKey. */
      restart_key: recordingKey.default(() => defaultRestartKey(hostPlatform())),
      /** While recording: cancel (WenZi's `space`, kept for WenZi configs); Escape cancels as well, always. */
      cancel_key: recordingKey.default('space'),
      visual_indicator: z.boolean().default(true),
      /** The indicator shows the text decoded so far while recording (needs asr.local.decode_while_speaking). */
      live_text: z.boolean().default(false),
      sound_enabled: z.boolean().default(true),
      sound_volume: finiteNumber.min(0).max(1).default(0.4),
    })
    .prefault({}),
  audio: z
    .object({
      /** Microphone device id; null = the system default (WenZi: `device null`). */
      device: z.string().max(512).nullable().default(null),
      max_recording_seconds: int(1, 3600).default(120),
      /** RMS on the int16 scale below which a recording is discarded as silence. */
      silence_rms: finiteNumber.min(0).max(32768).default(20),
      pre_roll_ms: int(0, 2000).default(300),
      vad_enabled: z.boolean().default(false),
      /** Days to keep the audio of finished dictations (0 = delete once done; failed ones stay for retry). */
      retention_days: int(0, 3650).default(7),
    })
    .prefault({}),
  asr: z
    .object({
      engine: z.enum(['local', 'remote']).default('local'),
      language: languageCode.default('follow-ui'),
      /**
       * Script of Chinese ASR output, converted before display, diffing and history (asr/chinese-script.ts):
       * auto = Traditional for zh-TW/zh-HK/zh-MO/zh-Hant/yue, else Simplified (WenZi converts to Simplified).
       */
      chinese_script: z.enum(['auto', 'simplified', 'traditional', 'as-recognized']).default('auto'),
      temperature: finiteNumber.min(0).max(1).default(0),
      local: z
        .object({
          model: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/, 'a ggml model name like base or large-v3-turbo').default('base'),
          /** 0 = choose from the CPU count. */
          threads: int(0, 64).default(0),
          idle_unload_minutes: int(0, 1440).default(5),
          /** Shrink whisper's 30 s encoder window for short dictations (≤ 20 s): ~2-3× faster. */
          adaptive_context: z.boolean().default(true),
          /**
           * Load the model at start and after a model change, so the first dictation does not wait for it:
           * trades the model's memory (held until idle_unload_minutes) for a fast first dictation.
           */
          warm_up: z.boolean().default(true),
          /**
           * Decode each stretch of speech as the speaker pauses (Silero VAD) while the key is still held, so
           * key-up waits only for the last stretch instead of the whole recording (live-transcriber.ts).
           */
          decode_while_speaking: z.boolean().default(true),
          models_mirror: httpUrl.default('https://huggingface.co/ggerganov/whisper.cpp/resolve/main'),
        })
        .prefault({}),
      remote: z
        .object({
          base_url: httpUrl.default('https://api.openai.com/v1'),
          model: z.string().trim().min(1).max(200).default('whisper-1'),
        })
        .prefault({}),
    })
    .prefault({}),
  ai_enhance: z
    .object({
      enabled: z.boolean().default(false),
      mode: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a mode id (file name in enhance_modes/)').default('proofread'),
      providers: z.record(providerId, providerSchema).default({
        ollama: { kind: 'ollama', base_url: 'http://localhost:11434/v1', models: ['qwen2.5:7b'] },
      }),
      default_provider: providerId.default('ollama'),
      default_model: z.string().trim().min(1).max(200).default('qwen2.5:7b'),
      thinking: z.boolean().default(false),
      /** Seconds for the whole request (deadline). */
      timeout: finiteNumber.positive().max(600).default(10),
      connection_timeout: finiteNumber.positive().max(600).default(10),
      max_retries: int(0, 10).default(2),
      max_output_tokens: int(1, 1_000_000).default(4096),
      /** What is said about the app being dictated into (captured at key-down, sent in the prompt's dynamic tail, kept on the record). */
      input_context: z.enum(['off', 'basic', 'detailed']).default('basic'),
      conversation_history: conversationHistorySchema.prefault({}),
      vocabulary: z
        .object({
          enabled: z.boolean().default(true),
          /** Pairs injected into the LLM prompt (WenZi MAX_LLM_ENTRIES). */
          max_llm_entries: int(0, 100).default(5),
          /** Hotwords passed to whisper's initial prompt, and its character cap. */
          max_dynamic_hotwords: int(0, 100).default(10),
          max_hotword_chars: int(0, 2000).default(200),
          /** Propose vocabulary pairs from the user's edits in the preview and History (edit-learning/edit-learner.ts). */
          learn_from_edits: z.boolean().default(true),
          /** Add a learned pair without asking once the same correction has been confirmed twice. */
          auto_add_learned: z.boolean().default(true),
        })
        .prefault({}),
      context_note: z.string().max(4000).default(''),
      /** Context window (tokens) instead of what the provider reports: one number, or one per model name. */
      context_window: z.union([int(512, 10_000_000), z.record(z.string().min(1).max(200), int(512, 10_000_000))]).optional(),
      /** The built-in engine (provider kind `local`, src/main/enhance/local-llm/): its context, threads, kept sequences, memory and idle unload. */
      local: z
        .object({
          /** Tokens per sequence (prompt + answer). */
          context_size: int(512, 131_072).default(4096),
          /** CPU threads; 0 = llama.cpp's choice. */
          threads: int(0, 256).default(0),
          /** Recently used modes whose prompt stays evaluated (fewer when they would not fit memory_mb). */
          max_sequences: int(1, 16).default(4),
          memory_mb: int(64, 65_536).default(1024),
          /** Unload the model after this many idle minutes; 0 keeps it loaded. */
          idle_unload_minutes: int(0, 1440).default(10),
        })
        .prefault({}),
      /** Key-down warm-up of the prompt prefix: the built-in engine and local servers ('local'), cloud providers too ('all', one request each), or never. */
      warm_up: z.enum(['local', 'all', 'off']).default('local'),
    })
    .prefault({}),
  /**
   * Text rules run on the recognized text before the LLM and the paste, without an LLM
   * (src/main/text-rules/): fillers and stutters removed, spoken self-corrections applied, replacement rules
   * and snippets (stored in text-rules.json in the data folder). On by default (as Handy's filler removal):
   * a config without the section gets it on; each switch is in Settings › Text rules and per mode.
   */
  text_rules: z
    .object({
      /** Hesitations (嗯, 呃, um, uh), fillers set off by pauses (那个，…, you know), stutters (我我我, I I). */
      fillers: z.boolean().default(true),
      /** "明天三点，不对，四点" → "明天四点"; "at 3, I mean 4" → "at 4"; "scratch that". */
      self_corrections: z.boolean().default(true),
      replacements: z.boolean().default(true),
      snippets: z.boolean().default(true),
      /** Per mode (mode id → on/off): the removal stages (fillers, self-corrections) in that mode; absent = on. */
      modes: z.record(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), z.boolean()).default({}),
    })
    .prefault({}),
  output: z
    .object({
      preview: z.boolean().default(true),
      /** Direct mode: when ASR or the LLM fails, show the panel (best text + Retry) instead of pasting the raw text. */
      preview_on_failure: z.boolean().default(false),
      method: z.enum(['paste', 'copy']).default('paste'),
      restore_clipboard: z.boolean().default(true),
      /** WenZi's key, read only by the v3 → v4 migration (which turns `true` into submit_key "enter"). */
      append_newline: z.boolean().default(false),
      /** The key pressed after a paste lands (Enter sends in most chats); an app rule may choose another. */
      submit_key: z.enum(SUBMIT_KEYS).default('none'),
    })
    .prefault({}),
  /** Modes and outputs that follow the app dictated into (shared/config/app-rules.ts); first match wins. */
  app_rules: appRulesSchema,
  history: z
    .object({
      enabled: z.boolean().default(true),
      /** 0 = keep forever. */
      retention_days: int(0, 36500).default(0),
    })
    .prefault({}),
  app: z
    .object({
      launch_at_login: z.boolean().default(false),
    })
    .prefault({}),
  secrets: z
    .object({
      /** Without an OS keyring, API keys are written to disk in plain text only after explicit consent. */
      plaintext_consent: z.boolean().default(false),
    })
    .prefault({}),
});

/** The validated config, every field present. */
export type Config = z.infer<typeof configSchema>;

/** Every default (a fresh object each call). */
export function defaultConfig(): Config {
  return configSchema.parse({});
}
