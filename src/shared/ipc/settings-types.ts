/**
 * Wire shapes of the Settings window's own channels (vocabulary, models, modes, providers, history
 * files). Kept apart from wire-types.ts so the settings feature owns one file.
 */

/** One vocabulary pair with its counters summed over every model. */
export interface VocabItem {
  readonly id: number;
  readonly wrong: string;
  readonly right: string;
  readonly source: 'asr' | 'llm' | 'user';
  readonly note: string;
  readonly updatedAt: string;
  readonly asrHit: number;
  readonly asrMiss: number;
  readonly llmHit: number;
  readonly llmMiss: number;
}

/** A whisper model as the model manager sees it, with the state of a running download. */
export interface ModelItem {
  readonly name: string;
  readonly installed: boolean;
  /** Size on disk when installed, else the catalog's approximate size. */
  readonly bytes: number | null;
  readonly englishOnly: boolean;
  /** The few languages a model recognises (sherpa-onnx models); absent: whisper's ~99. */
  readonly languages?: readonly string[];
  readonly quantized: boolean;
  /** Transcription speed on a typical laptop CPU, 1 (slowest) … 5 (fastest). */
  readonly speed: number;
  /** Per UI language (and `multi`, several languages), the model's place among the recommended ones (0 = first choice); absent when not recommended. */
  readonly recommended: { readonly zh?: number; readonly en?: number; readonly multi?: number };
  /** Where the catalog view lists it (model-catalog.ts modelGroup); `llm`: a GGUF model of the built-in LLM engine. */
  readonly group: 'chinese' | 'english' | 'multilingual' | 'large' | 'llm';
  /** For an LLM model (group `llm`): its size class, file, and place among this machine's recommendations per UI language. */
  readonly llm?: { readonly params: number; readonly family: 'qwen2.5' | 'qwen3'; readonly file: string; readonly rank: { readonly zh?: number; readonly en?: number } };
  readonly download: ModelDownloadState | null;
}

/** Payload of `models:progress`: a download's new state (pushed by main while it runs, and when it ends). */
export interface ModelProgressEvent {
  readonly name: string;
  readonly download: ModelDownloadState;
}

/** Progress of a model download (pushed as `models:progress`; also in `models:list`).
 */
export type ModelDownloadState =
  | { readonly state: 'downloading'; readonly received: number; readonly total: number | null }
  /** Paused (or interrupted earlier): the partial file is kept and the next download resumes from it. */
  | { readonly state: 'paused'; readonly received: number; readonly total: number | null }
  /** `code`: why (model-manager's DownloadErrorCode, e.g. 'network'), so the window can say it in the UI language. */
  | { readonly state: 'failed'; readonly message: string; readonly code?: string }
  | { readonly state: 'done' };

/** One enhancement mode file. */
export interface ModeItem {
  readonly id: string;
  readonly label: string;
  readonly order: number;
  readonly steps: readonly string[] | null;
  /** The Markdown file's whole text (front matter + prompt). */
  readonly text: string;
  /** Why the file cannot be used (it is listed so the user can fix it), or null. */
  readonly problem: string | null;
  /** One of the app's own modes: re-created whenever its file is missing, so it can be edited, not deleted. */
  readonly builtin: boolean;
}

/** What `providers:verify` found (and the other `providers:*` shapes): see provider-types.ts. */
export type { PromptCacheReport, ProviderCheckResult, ProviderModelList, ProviderPreset } from './provider-types.ts';

/** A file written or read through a save/open dialog; null when the user cancelled the dialog. */
export type FileActionResult = { readonly path: string; readonly count: number } | null;

/** Result of a vocabulary import: pairs added, and the ones already present (merged, and said so); null when cancelled. */
export type VocabImportResult = {
  readonly path: string;
  readonly count: number;
  readonly duplicates: readonly { readonly wrong: string; readonly right: string }[];
} | null;

/** Why an import did not read a file, for words in the UI language (src/main/history/import-export/wenzi-import.ts `SkipCause`). */
export type ImportSkipCause = 'symbolic-link' | 'not-an-archive-name' | 'folder' | 'not-a-regular-file' | 'read-failed';

/** A source file an import did not read: `reason` is the technical text (shown in brackets, untranslated). */
export interface ImportSkippedFile {
  readonly path: string;
  readonly cause: ImportSkipCause;
  readonly reason: string;
}

/** Unreadable lines of one source file (left there unchanged): the first line numbers, and how many in all that the import named. */
export interface ImportUnreadableFile {
  readonly path: string;
  readonly lines: readonly number[];
  readonly count: number;
}

/**
 * Result of importing a WenZi history folder; null when the dialog was cancelled. `skipped`: files not
 * read (their records are missing); `unreadable`: where the `badLines` were, file by file.
 */
export type HistoryImportResult = {
  readonly path: string;
  readonly imported: number;
  readonly duplicates: number;
  readonly badLines: number;
  readonly skipped: readonly ImportSkippedFile[];
  readonly unreadable: readonly ImportUnreadableFile[];
} | null;
