/**
 * Builds the {@link SettingsApi} over the real services: VocabularyStore, ModelManager, the modes
 * folder, the provider presets, Verify (a real dictation's request) and model lists, the prompt-cache report,
 * history export and WenZi import. The only OS parts are the file dialogs,
 * passed in (Electron's dialog in the app; a recorder in browser tests).
 */
import { readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import os from 'node:os';
import { isEnglishOnlyName, modelGroup, modelSpeed } from '../asr/model-catalog.ts';
import { ModelDownloadError, type ModelManager } from '../asr/model-manager.ts';
import { promptCacheReport } from '../enhance/cache-report.ts';
import { llmCardInfo } from '../enhance/local-llm/llm-catalog.ts';
import { providerFromConfig, settingsFromConfig } from '../enhance/enhancer.ts';
import { listModels } from '../enhance/llm-client.ts';
import { providerPresets } from '../enhance/providers/presets.ts';
import { providerModel, verifyProvider } from '../enhance/verify-provider.ts';
import { loadModes, modesDir, parseModeText } from '../enhance/modes.ts';
import { BUILTIN_MODES, type PromptLanguage } from '../enhance/builtin-modes.ts';
import type { VocabEntry, VocabularyStore } from '../enhance/vocabulary-store.ts';
import { exportHistory } from '../history/import-export/export.ts';
import type { HistoryStore } from '../history/store/history-store.ts';
import type { WenziImportOutcome } from '../history/import-export/wenzi-import-indexed.ts';
import { writeFileAtomic } from '../settings/atomic-write.ts';
import type { ModeItem, ModelDownloadState, VocabItem } from '../../shared/ipc/settings-types.ts';
import type { ConfigService, SettingsApi } from './services.ts';
import { historyImportResult } from './handlers/history-import-result.ts';

/** A file filter of a dialog. */
export interface DialogFilter {
  readonly name: string;
  readonly extensions: readonly string[];
}

/** The OS file dialogs; each resolves to a path, or null when the user cancelled. */
export interface FileDialogs {
  saveFile(defaultName: string, filters: readonly DialogFilter[]): Promise<string | null>;
  openFile(filters: readonly DialogFilter[]): Promise<string | null>;
  openFolder(): Promise<string | null>;
}

/** What {@link createSettingsApi} needs. */
export interface SettingsApiDeps {
  readonly dataDir: string;
  readonly config: ConfigService;
  /** Only `get` is used here, in main, to verify a provider: the key never goes to a renderer. */
  readonly secretValue: (name: string) => string | undefined;
  readonly vocabulary: VocabularyStore;
  readonly models: ModelManager;
  readonly historyStore: HistoryStore;
  /** The history service's import (HistoryService.importWenzi): it keeps the index in step, as the CLI's does. */
  readonly history: { importWenzi(folder: string): Promise<WenziImportOutcome> };
  readonly dialogs: FileDialogs;
  readonly promptLanguage: () => PromptLanguage;
  readonly log?: (message: string, fields?: Readonly<Record<string, unknown>>) => void;
  /** Pushes a download's progress to the windows (`models:progress`); at most ~10 updates a second per download. */
  readonly onModelProgress?: (name: string, download: ModelDownloadState) => void;
}

function vocabItem(store: VocabularyStore, e: VocabEntry): VocabItem {
  const s = store.stats(e.id, '*');
  return { id: e.id, wrong: e.wrong, right: e.right, source: e.source, note: e.note, updatedAt: e.updatedAt, ...s };
}

/** The methods of {@link SettingsApi} whose names start with `prefix`: one concern of the settings window. */
type SettingsGroup<P extends string> = Pick<SettingsApi, Extract<keyof SettingsApi, `${P}${string}`>>;

/** A model download in flight (or its last state), and the controller that pauses it. */
interface DownloadEntry {
  state: ModelDownloadState;
  abort: AbortController | null;
}

const json = [{ name: 'JSON', extensions: ['json'] }];

/** The real settings services. */
export function createSettingsApi(deps: SettingsApiDeps): SettingsApi {
  return { ...vocabularyApi(deps), ...modelsApi(deps), ...modesApi(deps), ...providersApi(deps), ...historyApi(deps) };
}

/** The vocabulary list, its edits, and its export and import as a JSON file. */
function vocabularyApi(deps: SettingsApiDeps): SettingsGroup<'vocabulary'> {
  const { vocabulary, dialogs } = deps;
  return {
    vocabularyList: (filter) => vocabulary.list(filter).map((e) => vocabItem(vocabulary, e)),
    vocabularyAdd: ({ wrong, right, note }) => vocabItem(vocabulary, vocabulary.add({ wrong, right, source: 'user', ...(note !== undefined ? { note } : {}) })),
    vocabularyUpdate: (id, fields) => {
      const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as { wrong?: string; right?: string; note?: string };
      const e = vocabulary.update(id, clean);
      return e ? vocabItem(vocabulary, e) : null;
    },
    vocabularyRemove: (id) => vocabulary.remove(id),
    vocabularyExport: async () => {
      const file = await dialogs.saveFile('tingxie-vocabulary.json', json);
      if (!file) return null;
      const doc = vocabulary.exportData();
      await writeFileAtomic(file, `${JSON.stringify(doc, null, 2)}\n`);
      return { path: file, count: doc.entries.length };
    },
    vocabularyImport: async () => {
      const file = await dialogs.openFile(json);
      if (!file) return null;
      let doc: unknown;
      try {
        doc = JSON.parse(await readFile(file, 'utf8'));
      } catch (err) {
        throw new Error(`${path.basename(file)} is not a JSON file: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      return { path: file, ...vocabulary.importData(doc) };
    },
  };
}

/** The speech models: the list with each download's state, download (pause = cancel, resume), delete. */
function modelsApi(deps: SettingsApiDeps): SettingsGroup<'models'> {
  const { models } = deps;
  const downloads = new Map<string, DownloadEntry>();
  return {
    modelsList: () =>
      models.list().map((m) => ({
        name: m.name,
        installed: m.installed,
        bytes: m.bytes ?? m.catalog?.approxBytes ?? null,
        englishOnly: m.catalog?.englishOnly ?? isEnglishOnlyName(m.name),
        ...(m.catalog?.sherpa ? { languages: m.catalog.sherpa.languages } : {}),
        quantized: m.catalog?.quantized ?? /-q\d/.test(m.name),
        speed: modelSpeed(m.name),
        recommended: m.recommended,
        group: modelGroup(m.name, m.catalog),
        ...llmItem(m.name),
        // A partial file left by an earlier run (paused, quit, crashed) shows as paused: Resume continues it.
        download: downloads.get(m.name)?.state ?? (m.partialBytes > 0 && !m.installed ? { state: 'paused', received: m.partialBytes, total: m.catalog?.approxBytes ?? null } : null),
      })),
    modelsDownload: (name) => startModelDownload(deps, downloads, name),
    modelsCancel: (name) => downloads.get(name)?.abort?.abort(),
    modelsDelete: (name) => {
      downloads.delete(name);
      return models.delete(name);
    },
  };
}

/** The `llm` field of an LLM model's item (recommended for this machine's memory and chip), or nothing. */
function llmItem(name: string): { llm?: ReturnType<typeof llmCardInfo> & object } {
  const info = llmCardInfo(name, os.totalmem(), process.platform, process.arch);
  return info === undefined ? {} : { llm: info };
}

/** Starts downloading model `name` unless it is downloading already; its progress goes to deps.onModelProgress. */
function startModelDownload(deps: SettingsApiDeps, downloads: Map<string, DownloadEntry>, name: string): void {
  const { models } = deps;
  if (downloads.get(name)?.state.state === 'downloading') return;
  const abort = new AbortController();
  const entry: DownloadEntry = { state: { state: 'downloading', received: 0, total: null }, abort };
  downloads.set(name, entry);
  let sentAt = 0;
  const push = (force: boolean): void => {
    const now = Date.now();
    if (!force && now - sentAt < 100) return;
    sentAt = now;
    deps.onModelProgress?.(name, entry.state);
  };
  push(true);
  models
    .download(name, {
      signal: abort.signal,
      onProgress: (p) => {
        entry.state = { state: 'downloading', received: p.received, total: p.total ?? null };
        push(false);
      },
    })
    .then(
      () => {
        entry.state = { state: 'done' };
        push(true);
      },
      (err: unknown) => {
        // Pause = abort: the manager keeps the .part file and the next download resumes from it.
        if (err instanceof ModelDownloadError && err.code === 'cancelled') {
          // What is on disk, not the last (throttled) progress: that is where Resume continues.
          const total = entry.state.state === 'downloading' ? entry.state.total : null;
          entry.state = { state: 'paused', received: models.list().find((m) => m.name === name)?.partialBytes ?? 0, total };
        } else {
          entry.state = { state: 'failed', message: err instanceof Error ? err.message : String(err), ...(err instanceof ModelDownloadError ? { code: err.code } : {}) };
          deps.log?.('model download failed', { name, error: err });
        }
        push(true);
      },
    )
    .finally(() => {
      entry.abort = null;
    });
}

const isBuiltin = (id: string): boolean => BUILTIN_MODES.some((m) => m.id === id);

/** The mode files of the modes folder: each with its text, or the problem that keeps it from loading. */
function modesApi(deps: SettingsApiDeps): SettingsGroup<'modes'> {
  const dir = modesDir(deps.dataDir);
  const modeItem = async (file: string, id: string): Promise<ModeItem> => {
    const text = await readFile(file, 'utf8');
    try {
      const m = parseModeText(id, text, path.basename(file));
      return { id, label: m.label, order: m.order, steps: m.steps, text, problem: null, builtin: isBuiltin(id) };
    } catch (err) {
      return { id, label: id, order: 999, steps: null, text, problem: err instanceof Error ? err.message : String(err), builtin: isBuiltin(id) };
    }
  };

  return {
    modesList: async () => {
      const loaded = await loadModes(dir, { lang: deps.promptLanguage() });
      const items = await Promise.all(loaded.modes.map((m) => modeItem(path.join(dir, m.file.includes(path.sep) ? path.basename(m.file) : m.file), m.id)));
      const broken = await Promise.all(loaded.issues.map((i) => modeItem(path.join(dir, path.basename(i.file)), path.basename(i.file, '.md'))));
      return [...items, ...broken];
    },
    modesSave: async (id, text) => {
      // Refuse a broken file before it replaces a working one: the message names the problem.
      parseModeText(id, text);
      const file = path.join(dir, `${id}.md`);
      await writeFileAtomic(file, text.endsWith('\n') ? text : `${text}\n`);
      return modeItem(file, id);
    },
    modesDelete: async (id) => {
      // ensureBuiltinModes (modes.ts) writes a missing built-in file again at every load.
      if (isBuiltin(id)) throw new Error(`"${id}" is a built-in mode: it would be re-created, so it is edited rather than deleted`);
      try {
        await unlink(path.join(dir, `${id}.md`));
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw err;
      }
    },
  };
}

/** The LLM providers: Verify (a real dictation's request), their model lists, presets and the prompt-cache report. */
function providersApi(deps: SettingsApiDeps): SettingsGroup<'providers'> {
  const { vocabulary } = deps;
  return {
    providersVerify: async (providerId) => {
      const config = deps.config.get();
      const provider = providerFromConfig(config, { get: deps.secretValue }, providerId);
      if (!provider) throw new Error(`no provider "${providerId}" in the settings`);
      const settings = { ...settingsFromConfig(config, deps.promptLanguage()), providerId, model: providerModel(config, providerId) };
      const r = await verifyProvider(provider, settings, {
        dataDir: deps.dataDir,
        history: deps.historyStore,
        vocabulary,
        // The provider's raw error body (secrets removed) goes to the log only.
        log: (_level, message) => deps.log?.(`verify ${providerId}: ${message}`),
      });
      deps.log?.(`verify ${providerId}: ${r.message}`, { code: r.code, model: r.model, elapsedMs: r.elapsedMs });
      return r;
    },
    providersModels: async (providerId) => {
      const provider = providerFromConfig(deps.config.get(), { get: deps.secretValue }, providerId);
      if (!provider) throw new Error(`no provider "${providerId}" in the settings`);
      const l = await listModels(provider);
      return l.state === 'listed' ? { state: 'listed', models: l.models, problem: null } : l.state === 'no-list' ? { state: 'no-list', models: [], problem: null } : { state: 'failed', models: [], problem: l.message };
    },
    providersPresets: () => providerPresets(),
    providersPromptReport: () => promptCacheReport(deps.config.get(), deps.promptLanguage(), { dataDir: deps.dataDir, history: deps.historyStore, vocabulary }),
  };
}

/** History export to a file and WenZi import from a folder, each behind its file dialog. */
function historyApi(deps: SettingsApiDeps): SettingsGroup<'history'> {
  const { dialogs } = deps;
  return {
    historyExport: async (format) => {
      const file = await dialogs.saveFile(`tingxie-history.${format}`, [{ name: format.toUpperCase(), extensions: [format] }]);
      if (!file) return null;
      return { path: file, count: await exportHistory(deps.historyStore, file, format) };
    },
    historyImport: async () => {
      const folder = await dialogs.openFolder();
      if (!folder) return null;
      const { report, indexing } = await deps.history.importWenzi(folder);
      // The window names what was not imported; the log keeps every reason, lines included.
      deps.log?.('history import finished', { folder, indexing, imported: report.imported, duplicates: report.duplicates, badLines: report.badLines });
      if (report.skipped?.length || report.unreadable?.length) deps.log?.('history import left out', { skipped: report.skipped ?? [], unreadable: report.unreadable ?? [] });
      return historyImportResult(folder, report);
    },
  };
}
