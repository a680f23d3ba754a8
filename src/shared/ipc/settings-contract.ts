/**
 * Request schemas of the Settings window's channels, spread into contract.ts. File paths never come
 * from the renderer: export/import channels make main show the save/open dialog.
 */
import { z } from 'zod';
import type { FileActionResult, HistoryImportResult, ModeItem, ModelItem, ModelProgressEvent, PromptCacheReport, ProviderCheckResult, ProviderModelList, ProviderPreset, VocabImportResult, VocabItem } from './settings-types.ts';

/** Phantom type marker (contract.ts's `returns`, repeated to avoid an import cycle). */
const marker = <T>(): { readonly __type?: T } => ({});
const none = z.undefined({ error: 'this call takes no payload' });
const vocabId = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const term = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const modelName = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be a model name like base, large-v3-turbo or qwen2.5-1.5b-instruct-q4_k_m');
/** Mode ids are file names in enhance_modes/ (config-schema's rule). */
export const modeIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a mode id (letters, digits, _ -)');
/** A provider id (config-schema's rule: it appears in key paths and secret names). */
const providerId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a provider id');
/** Longest mode file the editor saves. */
export const maxModeText = 50_000;

/** Channel map of the settings feature; contract.ts spreads it in. */
export const settingsContract = {
  'vocabulary:list': { request: z.strictObject({ filter: z.string().max(200) }), response: marker<readonly VocabItem[]>() },
  'vocabulary:add': {
    request: z.strictObject({ wrong: term, right: term, note: z.string().max(500).optional() }),
    response: marker<VocabItem>(),
  },
  'vocabulary:update': {
    request: z.strictObject({ id: vocabId, wrong: term.optional(), right: term.optional(), note: z.string().max(500).optional() }),
    response: marker<VocabItem | null>(),
  },
  'vocabulary:remove': { request: z.strictObject({ id: vocabId }), response: marker<boolean>() },
  'vocabulary:export': { request: none, response: marker<FileActionResult>() },
  'vocabulary:import': { request: none, response: marker<VocabImportResult>() },
  'models:list': { request: none, response: marker<readonly ModelItem[]>() },
  'models:download': { request: z.strictObject({ name: modelName }), response: marker<null>() },
  'models:cancel': { request: z.strictObject({ name: modelName }), response: marker<null>() },
  'models:delete': { request: z.strictObject({ name: modelName }), response: marker<boolean>() },
  'modes:list': { request: none, response: marker<readonly ModeItem[]>() },
  'modes:save': {
    request: z.strictObject({ id: modeIdSchema, text: z.string().max(maxModeText, `must be at most ${maxModeText} characters`) }),
    response: marker<ModeItem>(),
  },
  /** Deletes a mode file the user added (a built-in one is refused: it would be re-created at start). */
  'modes:delete': { request: z.strictObject({ id: modeIdSchema }), response: marker<boolean>() },
  'providers:verify': { request: z.strictObject({ providerId }), response: marker<ProviderCheckResult>() },
  'providers:models': { request: z.strictObject({ providerId }), response: marker<ProviderModelList>() },
  'providers:presets': { request: none, response: marker<readonly ProviderPreset[]>() },
  'providers:prompt-report': { request: none, response: marker<PromptCacheReport>() },
  'history:export': { request: z.strictObject({ format: z.enum(['jsonl', 'csv']) }), response: marker<FileActionResult>() },
  'history:import': { request: none, response: marker<HistoryImportResult>() },
} as const;

/** Event payload types of the settings feature; contract.ts spreads it in. */
export const settingsEvents = {
  'models:progress': marker<ModelProgressEvent>(),
} as const;
