/** `vocabulary:*`, `models:*`, `modes:*`, `providers:*`, `history:export/import`: thin wrappers over {@link SettingsApi}. */
import type { IpcHandlers } from '../dispatcher.ts';
import type { SettingsApi } from '../services.ts';

type SettingsChannels =
  | 'vocabulary:list'
  | 'vocabulary:add'
  | 'vocabulary:update'
  | 'vocabulary:remove'
  | 'vocabulary:export'
  | 'vocabulary:import'
  | 'models:list'
  | 'models:download'
  | 'models:cancel'
  | 'models:delete'
  | 'modes:list'
  | 'modes:save'
  | 'modes:delete'
  | 'providers:verify'
  | 'providers:models'
  | 'providers:presets'
  | 'providers:prompt-report'
  | 'history:export'
  | 'history:import';

/** Handlers of the settings feature; `api` is absent in set-ups without these services. */
export function settingsHandlers(api: SettingsApi | undefined): Pick<IpcHandlers, SettingsChannels> {
  const svc = (): SettingsApi => {
    if (!api) throw new Error('these settings are not available in this window set-up');
    return api;
  };
  return {
    'vocabulary:list': ({ filter }) => svc().vocabularyList(filter),
    'vocabulary:add': ({ wrong, right, note }) => svc().vocabularyAdd({ wrong, right, note }),
    'vocabulary:update': ({ id, wrong, right, note }) => svc().vocabularyUpdate(id, { wrong, right, note }),
    'vocabulary:remove': ({ id }) => svc().vocabularyRemove(id),
    'vocabulary:export': () => svc().vocabularyExport(),
    'vocabulary:import': () => svc().vocabularyImport(),
    'models:list': () => svc().modelsList(),
    'models:download': ({ name }) => {
      svc().modelsDownload(name);
      return null;
    },
    'models:cancel': ({ name }) => {
      svc().modelsCancel(name);
      return null;
    },
    'models:delete': ({ name }) => svc().modelsDelete(name),
    'modes:list': () => svc().modesList(),
    'modes:save': ({ id, text }) => svc().modesSave(id, text),
    'modes:delete': ({ id }) => svc().modesDelete(id),
    'providers:verify': ({ providerId }) => svc().providersVerify(providerId),
    'providers:models': ({ providerId }) => svc().providersModels(providerId),
    'providers:presets': () => svc().providersPresets(),
    'providers:prompt-report': () => svc().providersPromptReport(),
    'history:export': ({ format }) => svc().historyExport(format),
    'history:import': () => svc().historyImport(),
  };
}
