/**
 * The IPC channel names, free of zod so the sandboxed preload can build the bridge without bundling
 * the schemas. contract.ts checks at compile time that this list and the contract agree.
 */
import { dictationChannelArity, dictationEventChannels } from './dictation-channels.ts';
import { learningChannelArity } from './learning-channels.ts';
import { recordingsChannelArity } from './recordings-channels.ts';
import { appRulesChannelArity } from './app-rules-channels.ts';
import { onboardingChannelArity, onboardingEventChannels } from './onboarding-channels.ts';
import { settingsChannelArity, settingsEventChannels } from './settings-channels.ts';
import { textRulesChannelArity } from './text-rules-channels.ts';

/**
 * Invoke channels (`domain:verb`, renderer → main) and how many payload arguments each takes: 0 means
 * the bridge method takes none, 1 means exactly one object. Extra arguments are dropped by the bridge
 * (TypeScript lets a caller pass more than a signature declares; they must not leak over IPC).
 */
export const invokeChannelArity = {
  'config:get': 0,
  'config:set': 1,
  'config:issues': 0,
  'secrets:status': 0,
  'secrets:set': 1,
  'secrets:delete': 1,
  'app:info': 0,
  'app:open-external': 1,
  'app:open-logs': 0,
  'app:copy-text': 1,
  'history:query': 1,
  'history:count': 1,
  'history:update': 1,
  'history:delete': 1,
  'history:delete-day': 1,
  'history:delete-all': 1,
  'history:stats': 1,
  ...dictationChannelArity,
  ...settingsChannelArity,
  ...onboardingChannelArity,
  ...learningChannelArity,
  ...recordingsChannelArity,
  ...appRulesChannelArity,
  ...textRulesChannelArity,
} as const satisfies Readonly<Record<`${string}:${string}`, 0 | 1>>;

/** Every invoke channel name. */
export type InvokeChannel = keyof typeof invokeChannelArity;

/** The invoke channels as a list, in contract order. */
export const invokeChannels = Object.keys(invokeChannelArity) as readonly InvokeChannel[];

/** Event channels (main → renderer), delivered to every trusted window. */
export const eventChannels = ['config:changed', 'app:notice', 'history:changed', ...dictationEventChannels, ...settingsEventChannels, ...onboardingEventChannels] as const;

/** Every event channel name. */
export type EventChannel = (typeof eventChannels)[number];

/** `open-external` → `openExternal`: the bridge method name of a kebab-case verb or event. */
export function camelCase(kebab: string): string {
  return kebab.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** Splits `domain:verb` into its two parts. */
export function splitChannel(channel: string): { readonly domain: string; readonly verb: string } {
  const at = channel.indexOf(':');
  return { domain: channel.slice(0, at), verb: channel.slice(at + 1) };
}

/** `config:changed` → `configChanged`: the `tingxie.on.<name>` of an event channel. */
export function eventMethodName(event: string): string {
  const { domain, verb } = splitChannel(event);
  return camelCase(`${domain}-${verb}`);
}
