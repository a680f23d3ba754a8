/**
 * The recording keys (cancel, restart, previous/next mode) registered as global shortcuts while a
 * recording runs, so they are consumed instead of reaching the app being dictated into
 * (dictation/recording-keys.ts). On Wayland they are not registered: each would ask the user to confirm
 * a system shortcut at every recording (hotkeys.ts).
 */
import type { HotkeyAction, HotkeyBindings, RecordingKeyRole } from '../dictation/hotkey-router.ts';
import { RecordingKeyGrabs, recordingShortcuts, shortcutsAct, type RecordingShortcut, type ShortcutRegistry } from '../dictation/recording-keys.ts';
import { ROLE_ACTION } from './hotkey-actions.ts';

/** What {@link createRecordingKeyConsumer} needs. */
export interface RecordingKeyConsumerDeps {
  readonly registry: ShortcutRegistry;
  readonly platform: NodeJS.Platform;
  readonly wayland: boolean;
  /** Whether the key hook runs (it decides which source acts, and whether a key can be held). */
  readonly hookRunning: () => boolean;
  /** Whether the dictation records now. */
  readonly sessionRecording: () => boolean;
  /** The current bindings (null before the first apply). */
  readonly bindings: () => HotkeyBindings | null;
  readonly run: (a: HotkeyAction) => void;
  readonly log: (level: 'info' | 'warn', message: string, fields?: Record<string, unknown>) => void;
}

/** The recording keys' registrations. */
export interface RecordingKeyConsumer {
  /** Roles the shortcuts act on now: the hook leaves those keys alone (one source acts per key). */
  actingElsewhere(): ReadonlySet<RecordingKeyRole>;
  /** Registers the keys for the current bindings while recording, or releases them. */
  update(): void;
  /** The dictation started (`true`) or stopped recording. */
  recordingChanged(recording: boolean): void;
  /** Accelerators registered now. */
  accelerators(): readonly string[];
  /** Releases every key (quit). */
  release(): void;
}

const NO_ROLES: ReadonlySet<RecordingKeyRole> = new Set();

/** Registers the recording keys while recording and releases them on any way out. */
export function createRecordingKeyConsumer(deps: RecordingKeyConsumerDeps): RecordingKeyConsumer {
  let recording = false;
  let grabFailuresLogged = '';
  /** One source acts per recording key (see shortcutsAct): the shortcut's callback, or the hook. */
  const shortcutActs = (): boolean => shortcutsAct(deps.platform, deps.hookRunning());
  const grabs = new RecordingKeyGrabs({
    registry: deps.registry,
    onPress: (s: RecordingShortcut) => {
      if (!shortcutActs() || !deps.sessionRecording()) return; // consumed only: the hook acts on it
      deps.run(ROLE_ACTION[s.role]);
    },
  });
  const update = (): void => {
    const bindings = deps.bindings();
    if (!recording || bindings === null || deps.wayland) {
      grabs.release();
      return;
    }
    // Without the hook nothing can be held: only the bare keys can arrive.
    const b: HotkeyBindings = deps.hookRunning() ? bindings : { ...bindings, talkMode: 'toggle' };
    const failed = grabs.engage(recordingShortcuts(b, deps.platform));
    const key = JSON.stringify(failed);
    // Once per distinct set: the same key taken by another app is not news at every recording.
    if (failed.length > 0 && key !== grabFailuresLogged) deps.log('warn', 'some recording keys cannot be consumed: they still act, and also reach the focused app', { failed });
    grabFailuresLogged = failed.length > 0 ? key : '';
  };
  return {
    actingElsewhere: () => (shortcutActs() ? grabs.consumedRoles() : NO_ROLES),
    update,
    recordingChanged(on) {
      // A restart stays `recording`: engage keeps what is registered (no gap) and retries what failed.
      const changed = on !== recording;
      recording = on;
      update();
      if (changed) deps.log('info', on ? 'recording keys consumed' : 'recording keys released', on ? { accelerators: grabs.accelerators() } : undefined);
    },
    accelerators: () => grabs.accelerators(),
    release() {
      grabs.release();
      recording = false;
    },
  };
}
