/**
 * Settings-window channels (zod-free, for the preload): spread into channels.ts so the feature adds
 * its channels in one place.
 */

/** Invoke channels of the settings feature and their arity (see channels.ts). */
export const settingsChannelArity = {
  'vocabulary:list': 1,
  'vocabulary:add': 1,
  'vocabulary:update': 1,
  'vocabulary:remove': 1,
  'vocabulary:export': 0,
  'vocabulary:import': 0,
  'models:list': 0,
  'models:download': 1,
  'models:cancel': 1,
  'models:delete': 1,
  'modes:list': 0,
  'modes:save': 1,
  'modes:delete': 1,
  'providers:verify': 1,
  'providers:models': 1,
  'providers:presets': 0,
  'providers:prompt-report': 0,
  'history:export': 1,
  'history:import': 0,
} as const;

/** Events of the settings feature (main → renderer). */
export const settingsEventChannels = ['models:progress'] as const;
