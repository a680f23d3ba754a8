/**
 * The one IPC contract: every channel's request schema (validated in main before any handler runs)
 * and response type, plus the events main sends to renderers. Both ends are typed from this file.
 */
import { z } from 'zod';
import type { EventChannel, InvokeChannel, invokeChannelArity } from './channels.ts';
import { dictationContract, dictationEvents } from './dictation-contract.ts';
import { forbiddenKeys, jsonValueSchema } from './json-value.ts';
import { learningContract } from './learning-contract.ts';
import { onboardingContract, onboardingEvents } from './onboarding-contract.ts';
import { recordingsContract } from './recordings-contract.ts';
import { appRulesContract } from './app-rules-contract.ts';
import { settingsContract, settingsEvents } from './settings-contract.ts';
import { textRulesContract } from './text-rules-contract.ts';
import { historyQuerySchema, statsQuerySchema } from '../history/query.ts';
import type { HistoryMatchCount, HistoryPage, UsageStats } from '../history/query.ts';
import type { StoredRecord } from '../history/record.ts';
import type {
  AppInfo,
  AppNotice,
  ConfigChangedEvent,
  ConfigIssuesInfo,
  ConfigSnapshot,
  HistoryChangedEvent,
  SecretsStatus,
} from './wire-types.ts';

/** A phantom marker carrying a response (or event payload) type; it has no runtime content. */
export interface TypeMarker<T> {
  /** Never set: only here so `T` is part of the type. */
  readonly __type?: T;
}

/** Declares the response type of a channel: `returns<AppInfo>()`. */
export function returns<T>(): TypeMarker<T> {
  return {};
}

/** What a contract entry holds. */
export interface ChannelSpec {
  readonly request: z.ZodType;
  readonly response: TypeMarker<unknown>;
}

/** Request schema of a channel that takes no payload: only `undefined` passes. */
export const noPayload = z.undefined({ error: 'this call takes no payload' });

/** Longest config key path accepted (the deepest real one is well under 100 characters). */
export const maxKeyPathLength = 256;
/** Longest secret value accepted: API keys and tokens are far shorter. */
export const maxSecretLength = 8192;
/** Longest URL `app:open-external` accepts. */
export const maxUrlLength = 2048;

// A segment is anything but a dot or a control character, so provider ids with spaces still work.
// eslint-disable-next-line no-control-regex
const keyPathPattern = /^[^.\u0000-\u001f\u007f]+(\.[^.\u0000-\u001f\u007f]+)*$/;
// Same alphabet as the secret store's names (src/main/settings/secrets.ts), so a name that passes here is stored.
const secretNamePattern = /^(provider:[A-Za-z0-9_.:-]{1,64}|asr:remote)$/;

/** A dotted config key path such as `ai_enhance.conversation_history.max_entries`. */
export const keyPathSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(maxKeyPathLength, `must be at most ${maxKeyPathLength} characters`)
  .regex(keyPathPattern, 'must be dot-separated names without empty parts or control characters')
  .refine((p) => p.split('.').every((segment) => !forbiddenKeys.has(segment)), {
    message: 'must not contain __proto__, constructor or prototype',
  });

/** A secret's name: `provider:<providerId>` or `asr:remote`. */
export const secretNameSchema = z
  .string()
  .max(80, 'must be at most 80 characters')
  .regex(secretNamePattern, 'must be "provider:<id>" (letters, digits, _ . : -) or "asr:remote"');

/** A history record's key: its id, or `ts:<timestamp>` for a WenZi record without one. */
export const recordKeySchema = z.string().min(1, 'must not be empty').max(128, 'must be at most 128 characters');
/** Longest final text an edit may save (a dictation is at most minutes of speech). */
export const maxFinalTextLength = 100_000;

/** The channel map. `satisfies` keeps it in step with channels.ts (no missing, no extra channel). */
export const ipcContract = {
  'config:get': { request: noPayload, response: returns<ConfigSnapshot>() },
  'config:set': {
    request: z.strictObject({ keyPath: keyPathSchema, value: jsonValueSchema }),
    response: returns<ConfigSnapshot>(),
  },
  'config:issues': { request: noPayload, response: returns<ConfigIssuesInfo>() },
  'secrets:status': { request: noPayload, response: returns<SecretsStatus>() },
  'secrets:set': {
    request: z.strictObject({
      name: secretNameSchema,
      value: z
        .string()
        .min(1, 'must not be empty (use secrets:delete to remove a secret)')
        .max(maxSecretLength, `must be at most ${maxSecretLength} characters`),
    }),
    response: returns<SecretsStatus>(),
  },
  'secrets:delete': { request: z.strictObject({ name: secretNameSchema }), response: returns<SecretsStatus>() },
  'app:info': { request: noPayload, response: returns<AppInfo>() },
  'app:open-external': {
    request: z.strictObject({ url: z.string().min(1).max(maxUrlLength, `must be at most ${maxUrlLength} characters`) }),
    response: returns<null>(),
  },
  'app:open-logs': { request: noPayload, response: returns<null>() },
  /** Puts text on the system clipboard (the History Browser's Copy buttons; the page itself has no clipboard permission). */
  'app:copy-text': { request: z.strictObject({ text: z.string().max(maxFinalTextLength, `must be at most ${maxFinalTextLength} characters`) }), response: returns<null>() },
  'history:query': { request: historyQuerySchema.strict(), response: returns<HistoryPage>() },
  'history:count': { request: historyQuerySchema.strict(), response: returns<HistoryMatchCount>() },
  'history:update': {
    request: z.strictObject({
      key: recordKeySchema,
      final_text: z.string().max(maxFinalTextLength, `must be at most ${maxFinalTextLength} characters`),
    }),
    response: returns<StoredRecord | null>(),
  },
  'history:delete': { request: z.strictObject({ key: recordKeySchema }), response: returns<boolean>() },
  'history:delete-day': {
    request: z.strictObject({
      day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a local date YYYY-MM-DD'),
      tzOffsetMinutes: z.number().int().min(-14 * 60).max(14 * 60),
    }),
    response: returns<number>(),
  },
  'history:delete-all': {
    request: z.strictObject({ confirm: z.literal(true, { error: 'must be true: deleting all history is confirmed explicitly' }) }),
    response: returns<null>(),
  },
  'history:stats': { request: statsQuerySchema.strict(), response: returns<UsageStats>() },
  ...dictationContract,
  ...settingsContract,
  ...onboardingContract,
  ...learningContract,
  ...recordingsContract,
  ...appRulesContract,
  ...textRulesContract,
} as const satisfies { readonly [C in InvokeChannel]: ChannelSpec };

/** Payload types of the main → renderer events. */
export const ipcEvents = {
  'config:changed': returns<ConfigChangedEvent>(),
  'app:notice': returns<AppNotice>(),
  'history:changed': returns<HistoryChangedEvent>(),
  ...dictationEvents,
  ...settingsEvents,
  ...onboardingEvents,
} as const satisfies { readonly [E in EventChannel]: TypeMarker<unknown> };

/** The type of the contract. */
export type IpcContract = typeof ipcContract;

/** What the renderer passes for channel `C` (before validation). */
export type RequestInput<C extends InvokeChannel> = z.input<IpcContract[C]['request']>;
/** What a handler receives for channel `C` (after validation). */
export type RequestOf<C extends InvokeChannel> = z.output<IpcContract[C]['request']>;
/** What channel `C` resolves to. */
export type ResponseOf<C extends InvokeChannel> = IpcContract[C]['response'] extends TypeMarker<infer T> ? T : never;
/** Payload of event `E`. */
export type EventPayload<E extends EventChannel> = (typeof ipcEvents)[E] extends TypeMarker<infer T> ? T : never;

// Compile-time check that channels.ts's arity (what the zod-free preload relies on) matches the schemas:
// 0 exactly when the request schema accepts `undefined`.
type ArityOf<C extends InvokeChannel> = undefined extends RequestInput<C> ? 0 : 1;
type ArityCheck = { readonly [C in InvokeChannel]: ArityOf<C> };
/** Type-level assertion only; exported so it is not an unused local. */
export type ArityAgrees = typeof invokeChannelArity extends ArityCheck ? true : never;
const arityAgrees: ArityAgrees = true;
void arityAgrees;
