/**
 * The pure half of the hotkeys: raw key-down/key-up events from the global hook in, dictation actions
 * out. Hold-to-talk keys start on key-down and stop on key-up (the hold key's own up, whatever else was
 * pressed meanwhile); while a session records, the cancel, restart and previous/next mode keys act.
 * OS auto-repeat (a stream of key-downs while held) is ignored. No timers, no I/O: app/hotkeys.ts feeds
 * it from uiohook-napi and runs the actions on the controller.
 */
import { modifierOf, parseKeyName, type KeySpec, type Modifier } from './hotkey-keys.ts';
import type { HotkeyRole } from '../../shared/notices/notice.ts';
import type { RawKeyEvent } from '../ports/raw-key-event.ts';

/** What a key event asks the dictation to do. */
export type HotkeyAction =
  | { readonly type: 'hold-down'; readonly key: string }
  | { readonly type: 'hold-up'; readonly key: string; readonly heldMs: number }
  | { readonly type: 'toggle'; readonly key: string }
  | { readonly type: 'cancel' }
  | { readonly type: 'restart' }
  | { readonly type: 'mode'; readonly delta: 1 | -1 };

/** The keys the router listens for (already parsed). */
export interface HotkeyBindings {
  /** Keys that start a dictation: held (`hold`) or pressed once to start and once to stop (`toggle`). */
  readonly talk: readonly KeySpec[];
  readonly talkMode: 'hold' | 'toggle';
  readonly cancel: KeySpec | null;
  readonly restart: KeySpec | null;
  readonly prevMode: KeySpec | null;
  readonly nextMode: KeySpec | null;
}

/** Bindings built from config key names, plus the names that could not be parsed (to report). */
export interface BindingsFromConfig {
  readonly bindings: HotkeyBindings;
  readonly problems: readonly { readonly key: string; readonly role: HotkeyRole; readonly error: string }[];
}

/** The config fields the bindings come from (a slice of Config, so tests need not build a whole one). */
export interface HotkeyConfig {
  readonly hotkeys: Readonly<Record<string, boolean>>;
  readonly recording: { readonly mode: 'hold' | 'toggle'; readonly prev_mode_key: string; readonly next_mode_key: string };
  readonly feedback: { readonly cancel_key: string; readonly restart_key: string };
}

/**
 * Parses the config's keys. The `hotkeys` map's enabled keys are the talk keys: held in `hold` mode;
 * in `toggle` mode the globalShortcut is the main trigger, and these keys act as toggles too.
 */
export function bindingsFromConfig(c: HotkeyConfig): BindingsFromConfig {
  const problems: { key: string; role: HotkeyRole; error: string }[] = [];
  const one = (name: string, role: HotkeyRole): KeySpec | null => {
    if (name.trim() === '') return null;
    const p = parseKeyName(name);
    if (p.ok) return p.key;
    problems.push({ key: name, role, error: p.error });
    return null;
  };
  const talk: KeySpec[] = [];
  for (const [name, enabled] of Object.entries(c.hotkeys)) {
    if (!enabled) continue;
    const k = one(name, 'dictation key');
    if (k !== null) talk.push(k);
  }
  return {
    bindings: {
      talk,
      talkMode: c.recording.mode,
      cancel: one(c.feedback.cancel_key, 'cancel key'),
      restart: one(c.feedback.restart_key, 'restart key'),
      prevMode: one(c.recording.prev_mode_key, 'previous-mode key'),
      nextMode: one(c.recording.next_mode_key, 'next-mode key'),
    },
    problems,
  };
}

function heldMods(e: RawKeyEvent): ReadonlySet<Modifier> {
  const s = new Set<Modifier>();
  if (e.ctrlKey) s.add('ctrl');
  if (e.altKey) s.add('alt');
  if (e.shiftKey) s.add('shift');
  if (e.metaKey) s.add('meta');
  // The hook sets a modifier's own flag only after its key-down on some platforms: count the key itself.
  const own = modifierOf(e.keycode);
  if (own !== null) s.add(own);
  return s;
}

function matches(spec: KeySpec | null, e: RawKeyEvent): boolean {
  if (spec === null || !spec.codes.includes(e.keycode)) return false;
  const mods = heldMods(e);
  return spec.mods.every((m) => mods.has(m));
}

/** Turns raw key events into dictation actions. One instance per set of bindings. */
export class HotkeyRouter {
  private readonly b: HotkeyBindings;
  private readonly down = new Set<number>();
  private hold: { readonly code: number; readonly key: string; readonly since: number } | null = null;

  constructor(bindings: HotkeyBindings) {
    this.b = bindings;
  }

  /** A key went down. `recording` says whether a session is recording now (cancel/restart/mode keys act only then). */
  keydown(e: RawKeyEvent, recording: boolean): readonly HotkeyAction[] {
    if (this.down.has(e.keycode)) return []; // auto-repeat
    this.down.add(e.keycode);
    const talk = this.b.talk.find((k) => matches(k, e));
    if (talk !== undefined) {
      if (this.b.talkMode === 'toggle') return [{ type: 'toggle', key: talk.name }];
      if (this.hold !== null) return []; // a second talk key while one is held changes nothing
      this.hold = { code: e.keycode, key: talk.name, since: e.time };
      return [{ type: 'hold-down', key: talk.name }];
    }
    if (!recording) return [];
    // While recording: the held talk key itself never counts as cancel/restart (e.g. restart = cmd, talk = cmd_r).
    if (this.hold?.code === e.keycode) return [];
    if (matches(this.b.cancel, e)) return [{ type: 'cancel' }];
    if (matches(this.b.restart, e)) return [{ type: 'restart' }];
    if (matches(this.b.prevMode, e)) return [{ type: 'mode', delta: -1 }];
    if (matches(this.b.nextMode, e)) return [{ type: 'mode', delta: 1 }];
    return [];
  }

  /** A key went up. */
  keyup(e: RawKeyEvent): readonly HotkeyAction[] {
    this.down.delete(e.keycode);
    const h = this.hold;
    if (h === null || h.code !== e.keycode) return [];
    this.hold = null;
    return [{ type: 'hold-up', key: h.key, heldMs: Math.max(0, e.time - h.since) }];
  }

  /** Forgets held keys (the hook restarted, or the bindings are about to be replaced). Returns a hold-up if a hold was active. */
  reset(time: number): readonly HotkeyAction[] {
    this.down.clear();
    const h = this.hold;
    this.hold = null;
    return h === null ? [] : [{ type: 'hold-up', key: h.key, heldMs: Math.max(0, time - h.since) }];
  }
}
