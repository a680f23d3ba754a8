/**
 * Builds the main-process services a dictation uses — history (JSONL + index), vocabulary, enhancer,
 * ASR — and the controller ports over them. One function for the app, the end-to-end tests and the
 * cold-start benchmark (B9), so what is measured and tested is what runs. Heavy modules (the openai
 * SDK, the whisper binding) are not loaded here: the LLM client and the remote engine import the SDK
 * on first call, and the local engine lives in its own process.
 */
import path from 'node:path';
import { findModel } from '../asr/model-catalog.ts';
import { AsrService } from '../asr/asr-service.ts';
import { audioJournalOf } from '../audio/journal.ts';
import type { HostLauncher } from '../asr/host-launcher.ts';
import type { PromptLanguage } from '../enhance/builtin-modes.ts';
import { contextWindowLookup } from '../enhance/context-window.ts';
import { Enhancer, providerFromConfig, settingsFromConfig, type SecretReader } from '../enhance/enhancer.ts';
import { EditLearner } from '../enhance/edit-learning/edit-learner.ts';
import { VOCABULARY_DB_FILE, VocabularyStore } from '../enhance/vocabulary-store.ts';
import { LocalBridge, registerLocalBridge } from '../enhance/local-llm/local-bridge.ts';
import { nodeLlmLauncher, type LlmLauncher } from '../enhance/local-llm/llm-launcher.ts';
import { LocalLlm } from '../enhance/local-llm/local-llm.ts';
import { HistoryService } from '../history/history-service.ts';
import { textRulesPort } from '../text-rules/dictation-rules.ts';
import type { Config } from '../../shared/config/config-schema.ts';
import type { AsrPort, EnhancePort, HistoryPort, TextRulesPort, VocabularyPort } from '../ports/dictation-ports.ts';
import type { EnhanceOutcome } from './session-types.ts';

/** Inputs of {@link openServiceGraph}. */
export interface ServiceGraphOptions {
  readonly dataDir: string;
  readonly config: () => Config;
  readonly secrets: SecretReader | null;
  readonly lang: () => PromptLanguage;
  /** Electron's utilityProcess launcher for the local engine (a child process under Node otherwise). */
  readonly launcher?: HostLauncher;
  /** Electron's utilityProcess launcher for the built-in LLM engine (a child process under Node otherwise). */
  readonly llmLauncher?: LlmLauncher;
  readonly warn?: (message: string) => void;
  /** An already open history service (the app's; one writer per data folder). Not closed by `close()`. */
  readonly history?: HistoryService;
}

/** The running services and the controller ports over them. */
export interface ServiceGraph {
  readonly history: HistoryService;
  readonly vocabulary: VocabularyStore | null;
  /** Learning pairs from edits, over the vocabulary (the panel's proposals and confirmed edits). */
  readonly learner: EditLearner;
  readonly enhancer: Enhancer;
  readonly asr: AsrService;
  readonly ports: { readonly asr: AsrPort; readonly enhance: EnhancePort; readonly history: HistoryPort; readonly vocabulary: VocabularyPort | null; readonly textRules: TextRulesPort };
  close(): Promise<void>;
}

/**
 * Model name recorded as `stt_model`: whisper-<ggml model>, a sherpa-onnx model by its catalog name
 * (sense-voice-small-int8: the name already says the engine), or the remote API model.
 */
export function sttModelName(config: Config): string {
  if (config.asr.engine !== 'local') return config.asr.remote.model;
  const model = config.asr.local.model;
  return findModel(model)?.sherpa !== undefined ? model : `whisper-${model}`;
}

/** Opens every service (config and secrets are the caller's). */
export async function openServiceGraph(opts: ServiceGraphOptions): Promise<ServiceGraph> {
  const warn = opts.warn ?? ((m: string) => console.warn(m));
  const config = opts.config;
  const ownHistory = opts.history === undefined;
  const history = opts.history ?? (await HistoryService.open({ dataDir: opts.dataDir, enabled: () => config().history.enabled, warn }));
  const vocabulary = openVocabulary(opts.dataDir, warn);
  const local = localBridgeOver(opts, warn);
  const enhancer = await openEnhancer(opts, history, vocabulary, warn, local);
  const asr = new AsrService({
    dataDir: opts.dataDir,
    // The folder's one audio journal: the controller's session journals write the same one.
    journal: audioJournalOf(opts.dataDir),
    remoteApiKey: () => opts.secrets?.get('asr:remote'),
    remoteKeyMismatch: () => opts.secrets?.mismatch?.('asr:remote'),
    // asr.language 'follow-ui' follows the UI language (recognition-language.ts).
    uiLanguage: opts.lang,
    ...(opts.launcher ? { launcher: opts.launcher } : {}),
  });
  const learner = editLearnerOver(vocabulary, opts.dataDir, config, warn);
  return {
    history,
    vocabulary,
    learner,
    enhancer,
    asr,
    ports: { asr: asrPortOver(asr, config, vocabulary, warn), enhance: enhancePortOver(enhancer, opts), history, vocabulary: learningVocabularyPort(vocabulary, learner), textRules: textRulesPort(opts.dataDir, config) },
    async close() {
      await asr.dispose();
      enhancer.close();
      await local.llm.shutdown();
      if (ownHistory) await history.close();
      vocabulary?.close();
    },
  };
}

/** The learner over the vocabulary; its settings are read at each use (`ai_enhance.vocabulary.*`). */
export function editLearnerOver(vocabulary: VocabularyStore | null, dataDir: string, config: () => Config, warn: (message: string) => void): EditLearner {
  return new EditLearner({
    vocabulary,
    dataDir,
    enabled: () => config().ai_enhance.vocabulary.learn_from_edits,
    autoAdd: () => config().ai_enhance.vocabulary.auto_add_learned,
    warn,
  });
}

/** The controller's vocabulary port: the store's hit/miss counters, then the confirmed text as an edit of what was shown. */
function learningVocabularyPort(vocabulary: VocabularyStore | null, learner: EditLearner): VocabularyPort | null {
  if (vocabulary === null) return null;
  return {
    recordOutcome: (o) => {
      vocabulary.recordOutcome(o);
      learner.observe(o.enhancedText ?? o.asrText, o.finalText);
    },
  };
}

/** The vocabulary store; null when it cannot be opened (it is a context source: dictation works without it). */
function openVocabulary(dataDir: string, warn: (message: string) => void): VocabularyStore | null {
  try {
    // A damaged or read-only file does not throw here: the store sets it aside or reads it as it can (vocabulary-repair.ts).
    const vocabulary = VocabularyStore.open(path.join(dataDir, VOCABULARY_DB_FILE), { warn });
    const { damage } = vocabulary;
    if (damage !== null) warn(`vocabulary ${damage.state}: ${damage.reason}${damage.damagedCopy !== null ? ` (damaged copy: ${damage.damagedCopy})` : ''}`);
    return vocabulary;
  } catch (err) {
    // The vocabulary is a context source: without it dictation still works.
    warn(`vocabulary unavailable: ${String(err)}`);
    return null;
  }
}

/** The enhancer over the history (recent and older corrections) and the vocabulary. */
/** The built-in LLM engine (its process starts on first use); its settings are read at each request (`ai_enhance.local`). */
function localBridgeOver(opts: ServiceGraphOptions, warn: (message: string) => void): LocalBridge {
  const local = () => opts.config().ai_enhance.local;
  const llm = new LocalLlm({ launcher: opts.llmLauncher ?? nodeLlmLauncher(), idleUnloadMs: () => local().idle_unload_minutes * 60_000, log: (level, m) => (level === 'warn' ? warn(m) : undefined) });
  const bridge = new LocalBridge({
    llm, dataDir: opts.dataDir,
    settings: () => ({ contextSize: local().context_size, threads: local().threads, maxSequences: local().max_sequences, memoryMb: local().memory_mb, idleUnloadMinutes: local().idle_unload_minutes }),
  });
  // Verify and the prompt report (Settings) run in this process: they use this engine.
  registerLocalBridge(bridge);
  return bridge;
}

function openEnhancer(opts: ServiceGraphOptions, history: HistoryService, vocabulary: VocabularyStore | null, warn: (message: string) => void, local: LocalBridge): Promise<Enhancer> {
  const config = opts.config;
  return Enhancer.open(
    {
      dataDir: opts.dataDir,
      history: history.store,
      // Older confirmed corrections come from the whole history (archives included) through its index.
      corrections: history,
      vocabulary,
      provider: (id) => providerFromConfig(config(), opts.secrets, id),
      log: (level, m) => (level === 'warn' ? warn(m) : undefined),
      contextWindows: contextWindowLookup,
      local,
    },
    settingsFromConfig(config(), opts.lang()),
  );
}

/** The controller's ASR port over the ASR service, with the vocabulary's hotwords. */
function asrPortOver(asr: AsrService, config: () => Config, vocabulary: VocabularyStore | null, warn: (message: string) => void): AsrPort {
  /** The language a record names when the engine did not say: the one the engine was given ('' for auto). */
  const languageGiven = (c: Config): string => {
    const given = asr.callOptions(c, []).language ?? 'auto';
    return given === 'auto' ? '' : given;
  };
  /** Hotwords for the ASR: none, never an error, when the vocabulary cannot be read (a dictation never fails on them). */
  const hotwordsFor = (c: Config): readonly string[] => {
    try {
      return vocabulary?.hotwordsForAsr(sttModelName(c), { maxHotwords: c.ai_enhance.vocabulary.max_dynamic_hotwords, maxChars: c.ai_enhance.vocabulary.max_hotword_chars }) ?? [];
    } catch (err) {
      warn(`vocabulary hotwords unavailable: ${String(err)}`);
      return [];
    }
  };
  return {
    modelName: () => sttModelName(config()),
    transcribe: async ({ id, pcm, signal }) => {
      const c = config();
      const r = await asr.transcribe(c, { pcm, sessionId: id, hotwords: hotwordsFor(c), signal });
      return { text: r.text, language: r.language ?? languageGiven(c) };
    },
    startLiveTranscription: (_id, onText) => {
      const c = config();
      const live = asr.startLive(c, { hotwords: hotwordsFor(c), onText });
      if (live === null) return null;
      return {
        push: (pcm) => live.push(pcm),
        end: () => live.end(),
        cancel: () => live.cancel(),
        result: async (signal) => {
          const r = await live.result(signal);
          return { text: r.text, language: r.language ?? languageGiven(c), chunks: r.chunks.length, pendingAtEnd: r.pendingAtEnd };
        },
      };
    },
  };
}

/** The controller's enhancement port over the enhancer (its settings re-read per call). */
function enhancePortOver(enhancer: Enhancer, opts: Pick<ServiceGraphOptions, 'config' | 'lang'>): EnhancePort {
  return {
    modes: () => enhancer.modes.map((m) => m.id),
    // Key-down: the mode's stable prompt prefix is evaluated while the user speaks (never waited for).
    prewarm: (mode) => {
      enhancer.updateSettings(settingsFromConfig(opts.config(), opts.lang()));
      if (opts.config().ai_enhance.enabled) void enhancer.prewarm(mode);
    },
    modeLabel: (id) => enhancer.modes.find((m) => m.id === id)?.label ?? id,
    enhance: async ({ text, mode, signal, onDelta, inputContext }): Promise<EnhanceOutcome> => {
      // Settings are re-read per call so a toggle in the tray or Settings applies to the next dictation.
      enhancer.updateSettings(settingsFromConfig(opts.config(), opts.lang()));
      const r = await enhancer.enhance({ text, mode, signal, ...(inputContext !== undefined ? { inputContext } : {}), onEvent: (e) => onDelta(e.type, e.type === 'reset' ? '' : e.text) });
      return {
        status: r.status,
        text: r.text,
        enhanced: r.enhanced,
        reason: r.reason ? `${r.reason.code}: ${r.reason.message}` : null,
        refusal: r.reason?.refusal ?? null,
        mode: r.mode,
        model: r.model,
        historyMode: r.historyMode,
        usage: r.usage,
      };
    },
  };
}
