/**
 * The pure half of the hotkeys: raw key-down/key-up events from the global hook in, dictation actions
 * out. Hold-to-talk keys start on key-down and stop on key-up (the hold key's own up, whatever else was
 * pressed meanwhile); while a session records, the cancel (and always Escape), restart and
 * previous/next mode keys act — with exactly their own modifiers plus those of the held talk key, so the
 * toggle shortcut Ctrl+Shift+Space is not also "Space = cancel". OS auto-repeat (a stream of key-downs
 * while held) is ignored. No timers, no I/O: app/hotkeys.ts feeds it from uiohook-napi and runs the
 * actions on the controller.
 */
import { FN_KEY_CODE, heldModifiersOf, modifierOf, parseKeyName, type KeySpec, type Modifier } from './hotkey-keys.ts';
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

/** The keys that act only while a recording runs (and are consumed then: app/hotkeys.ts). */
export type RecordingKeyRole = 'cancel' | 'restart' | 'prev-mode' | 'next-mode';

/** The keys the router listens for (already parsed). */
export interface HotkeyBindings {
  /** Keys that start a dictation: held (`hold`) or pressed once to start and once to stop (`toggle`). */
  readonly talk: readonly KeySpec[];
  readonly talkMode: 'hold' | 'toggle';
  /** The configured cancel key and Escape, which cancels everywhere (deduplicated). */
  readonly cancel: readonly KeySpec[];
  readonly restart: KeySpec | null;
  readonly prevMode: KeySpec | null;
  readonly nextMode: KeySpec | null;
}

/** Bindings built from config key names, plus the names that could not be parsed (to report). */
export interface BindingsFromConfig {
  readonly bindings: HotkeyBindings;
  readonly problems: readonly { readonly key: string; readonly role: HotkeyRole; readonly error: string }[];
}

/** Escape cancels a recording whatever `feedback.cancel_key` says (WenZi's configs keep their own cancel key too). */
export const ESCAPE: KeySpec = { name: 'esc', codes: [1], mods: [], accelerator: 'Escape' };

/** Why fn cannot be used where the platform offers no fn watcher. */
export const FN_UNAVAILABLE = 'the fn/Globe key can only be watched on macOS (PC keyboards handle Fn inside the keyboard); choose another key such as alt_r or f13';

/** The config fields the bindings come from (a slice of Config, so tests need not build a whole one). */
export interface HotkeyConfig {
  readonly hotkeys: Readonly<Record<string, boolean>>;
  readonly recording: { readonly mode: 'hold' | 'toggle'; readonly prev_mode_key: string; readonly next_mode_key: string };
  readonly feedback: { readonly cancel_key: string; readonly restart_key: string };
}

/**
 * Parses the config's keys. The `hotkeys` map's enabled keys are the talk keys: held in `hold` mode;
 * in `toggle` mode the globalShortcut is the main trigger, and these keys act as toggles too. An empty
 * cancel/restart/mode key means none. `fn` is null where the fn/Globe key can be watched (macOS with its
 * watcher running), otherwise the reason it cannot (default: not on this platform).
 */
export function bindingsFromConfig(c: HotkeyConfig, opts: { readonly fn?: string | null } = {}): BindingsFromConfig {
  const fnProblem = opts.fn === undefined ? FN_UNAVAILABLE : opts.fn;
  const problems: { key: string; role: HotkeyRole; error: string }[] = [];
  const one = (name: string, role: HotkeyRole): KeySpec | null => {
    if (name.trim() === '') return null;
    const p = parseKeyName(name);
    if (!p.ok) {
      problems.push({ key: name, role, error: p.error });
      return null;
    }
    if (fnProblem !== null && p.key.codes.includes(FN_KEY_CODE)) {
      problems.push({ key: name, role, error: fnProblem });
      return null;
    }
    return p.key;
  };
  const talk: KeySpec[] = [];
  for (const [name, enabled] of Object.entries(c.hotkeys)) {
    if (!enabled) continue;
    const k = one(name, 'dictation key');
    if (k !== null) talk.push(k);
  }
  const cancel = one(c.feedback.cancel_key, 'cancel key');
  return {
    bindings: {
      talk,
      talkMode: c.recording.mode,
      cancel: cancel === null || isPlainEscape(cancel) ? [ESCAPE] : [cancel, ESCAPE],
      restart: one(c.feedback.restart_key, 'restart key'),
      prevMode: one(c.recording.prev_mode_key, 'previous-mode key'),
      nextMode: one(c.recording.next_mode_key, 'next-mode key'),
    },
    problems,
  };
}

function isPlainEscape(k: KeySpec): boolean {
  return k.mods.length === 0 && k.codes.length === 1 && k.codes[0] === ESCAPE.codes[0];
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

/**
 * A recording key matches with its own modifiers and, besides those, only modifiers in `allowed` (the
 * held talk key's): Space is cancel, Ctrl+Shift+Space (the toggle shortcut) is not. This is also what the
 * consuming global shortcuts register, so a key acts exactly when it is consumed.
 */
function matchesExactly(spec: KeySpec, e: RawKeyEvent, allowed: ReadonlySet<Modifier>): boolean {
  if (!matches(spec, e)) return false;
  const own = modifierOf(e.keycode);
  for (const m of heldMods(e)) if (m !== own && !spec.mods.includes(m) && !allowed.has(m)) return false;
  return true;
}

const NONE: ReadonlySet<RecordingKeyRole> = new Set();
const NO_MODS: ReadonlySet<Modifier> = new Set();

/** Turns raw key events into dictation actions. One instance per set of bindings. */
export class HotkeyRouter {
  private readonly b: HotkeyBindings;
  private readonly down = new Set<number>();
  private hold: { readonly code: number; readonly key: string; readonly since: number; readonly mods: ReadonlySet<Modifier> } | null = null;

  constructor(bindings: HotkeyBindings) {
    this.b = bindings;
  }

  /**
   * A key went down. `recording` says whether a session is recording now (cancel/restart/mode keys act
   * only then). `actedElsewhere` lists recording-key roles whose consuming global shortcut acts instead
   * (app/hotkeys.ts decides which source acts, so no press acts twice).
   */
  keydown(e: RawKeyEvent, recording: boolean, actedElsewhere: ReadonlySet<RecordingKeyRole> = NONE): readonly HotkeyAction[] {
    if (this.down.has(e.keycode)) return []; // auto-repeat
    this.down.add(e.keycode);
    const talk = this.b.talk.find((k) => matches(k, e));
    if (talk !== undefined) {
      if (this.b.talkMode === 'toggle') return [{ type: 'toggle', key: talk.name }];
      if (this.hold !== null) return []; // a second talk key while one is held changes nothing
      this.hold = { code: e.keycode, key: talk.name, since: e.time, mods: new Set(heldModifiersOf(talk)) };
      return [{ type: 'hold-down', key: talk.name }];
    }
    if (!recording) return [];
    // While recording: the held talk key itself never counts as cancel/restart (e.g. restart = cmd, talk = cmd_r).
    if (this.hold?.code === e.keycode) return [];
    const allowed = this.hold?.mods ?? NO_MODS;
    const acts = (role: RecordingKeyRole, spec: KeySpec | null): boolean => spec !== null && !actedElsewhere.has(role) && matchesExactly(spec, e, allowed);
    if (this.b.cancel.some((c) => acts('cancel', c))) return [{ type: 'cancel' }];
    if (acts('restart', this.b.restart)) return [{ type: 'restart' }];
    if (acts('prev-mode', this.b.prevMode)) return [{ type: 'mode', delta: -1 }];
    if (acts('next-mode', this.b.nextMode)) return [{ type: 'mode', delta: 1 }];
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
