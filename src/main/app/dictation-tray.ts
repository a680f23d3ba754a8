/** The tray's dictation part: the mode list, the toggles and retry from the config and the controller, and what those items do. */
import type { Config } from '../../shared/config/config-schema.ts';
import { keyDisplayName } from '../../shared/key-names.ts';
import type { DictationController } from '../dictation/controller.ts';
import type { Notify } from './app-notices.ts';
import { TRAY_TOGGLES, type TrayAction, type TrayState, type TrayToggle } from './tray-menu.ts';
import type { TrayHandlers } from './tray.ts';

/** The tray items the composition root handles itself (Settings, History, Logs, Quit). */
export type RootTrayActions = Pick<Readonly<Record<TrayAction, () => void>>, 'open-settings' | 'open-history' | 'open-logs' | 'quit' | 'open-setup'>;

/** What {@link dictationTray} reads and changes. */
export interface DictationTrayDeps {
  readonly config: { get(): Config; set(keyPath: string, value: unknown): Promise<unknown> };
  readonly controller: Pick<DictationController, 'state' | 'lastRetryable' | 'retryLast' | 'setMode'>;
  /** The modes the enhancer knows now. */
  readonly modes: () => readonly { readonly id: string; readonly label: string }[];
  /** The "Enhance Selected Text" flow. */
  readonly enhanceSelection: () => void;
  /** Paste / copy / reopen the last dictation (last-dictation.ts). */
  readonly lastDictation: { paste(): void; copy(): void; reopen(): void };
  /** Start Dictation from the menu (a toggle: the same item stops it). */
  readonly startDictation: () => void;
  /** The UI language, for the hold key's name beside Start Dictation. */
  readonly lang: () => 'en' | 'zh';
  readonly notify: Notify;
}

/** The tray's dictation fields now, and the handlers of its dictation items. */
export interface DictationTray {
  state(): Partial<TrayState>;
  handlers(actions: RootTrayActions): TrayHandlers;
}

/** The tray's dictation fields and items over the config and the controller. */
export function dictationTray(deps: DictationTrayDeps): DictationTray {
  const { config, controller: c, notify } = deps;
  const toggles = (): Record<TrayToggle, boolean> => {
    const cfg = config.get();
    return {
      enhance: cfg.ai_enhance.enabled,
      preview: cfg.output.preview,
      history: cfg.ai_enhance.conversation_history.enabled,
      vocabulary: cfg.ai_enhance.vocabulary.enabled,
    };
  };
  return {
    state: () => {
      const r = config.get().recording;
      const lastKeys = { paste: r.paste_last_shortcut, copy: r.copy_last_shortcut, reopen: r.reopen_last_shortcut };
      const hold = r.mode === 'hold' ? Object.entries(config.get().hotkeys).find(([, on]) => on)?.[0] : undefined;
      const keys = hold === undefined ? { toggleShortcut: r.toggle_shortcut } : { holdKey: keyDisplayName(hold, process.platform, deps.lang()) };
      return { mode: config.get().ai_enhance.mode, modes: deps.modes().map((m) => ({ id: m.id, label: m.label })), toggles: toggles(), canRetry: c.lastRetryable() !== null, lastKeys, ...keys };
    },
    handlers: (actions) => ({
      actions: {
        ...actions,
        'enhance-selection': deps.enhanceSelection,
        'start-dictation': deps.startDictation,
        'paste-last': () => deps.lastDictation.paste(),
        'copy-last': () => deps.lastDictation.copy(),
        'reopen-last': () => deps.lastDictation.reopen(),
        'retry-last': () => {
          if (!c.retryLast()) notify('info', { code: 'no-retry' });
        },
      },
      mode: (id) => {
        void config.set('ai_enhance.mode', id).catch((err: unknown) => notify('error', { code: 'mode-switch-failed', reason: String(err) }));
        if (c.state.state !== 'idle') c.setMode(id);
      },
      toggle: (t, checked) => {
        const keyPath = TRAY_TOGGLES.find((x) => x.toggle === t)?.keyPath;
        if (keyPath !== undefined) void config.set(keyPath, checked).catch((err: unknown) => notify('error', { code: 'setting-save-failed', reason: String(err) }));
      },
    }),
  };
}
