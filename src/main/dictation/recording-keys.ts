/**
 * Consuming the recording keys. The global key hook (uiohook) only listens: Space, ← and → pressed to
 * cancel or switch modes would also reach the app being dictated into (a space typed into the document,
 * the caret moved, Alt+← = browser Back while Right Alt is held). So while — and only while — a
 * recording runs, each recording key is registered as a global shortcut, which the OS delivers to Tingxie
 * alone: XGrabKey on X11, RegisterHotKey on Windows, a Carbon hot key on macOS. Those grabs match the exact
 * modifier state, so each key is registered bare and with the held talk key's modifiers (Space and
 * Alt+Space while Right Alt is held). No electron import: app/hotkeys.ts passes Electron's globalShortcut.
 */
import { acceleratorFor, heldModifiersOf, MODIFIER_CODES, type KeySpec, type Modifier } from './hotkey-keys.ts';
import type { HotkeyBindings, RecordingKeyRole } from './hotkey-router.ts';

/** Electron's globalShortcut, as far as the recording keys need it. */
export interface ShortcutRegistry {
  /** True when registered; false when another app (or this one) holds it; throws for a name Electron cannot parse. */
  register(accelerator: string, callback: () => void): boolean;
  unregister(accelerator: string): void;
}

/** One accelerator that consumes a recording key. */
export interface RecordingShortcut {
  readonly accelerator: string;
  readonly role: RecordingKeyRole;
  /** The config key name it stands for (logs). */
  readonly key: string;
}

/**
 * The modifier states a recording key can be pressed in: none, and in hold mode each talk key's own
 * modifiers (Right Alt held → Alt). On Windows a Right Alt that is AltGr (German, French… layouts) is
 * reported as Ctrl+Alt, so that form is added too.
 */
export function heldModifierSets(b: HotkeyBindings, platform: NodeJS.Platform): readonly (readonly Modifier[])[] {
  const sets: Modifier[][] = [[]];
  const add = (mods: readonly Modifier[]): void => {
    const key = [...mods].sort().join('+');
    if (!sets.some((s) => [...s].sort().join('+') === key)) sets.push([...mods]);
  };
  if (b.talkMode === 'hold') {
    for (const t of b.talk) {
      const held = heldModifiersOf(t);
      if (held.length > 0) add(held);
      if (platform === 'win32' && t.codes.includes(MODIFIER_CODES.alt.right)) add([...held.filter((m) => m !== 'alt'), 'ctrl', 'alt']);
    }
  }
  return sets;
}

/**
 * The accelerators that consume the recording keys: every role's key in every held-modifier state.
 * Skipped: keys Electron cannot register (a modifier alone, fn, Pause) and a key that is also a talk key
 * (the router ignores the held talk key itself). First role wins when two share a key.
 */
export function recordingShortcuts(b: HotkeyBindings, platform: NodeJS.Platform): readonly RecordingShortcut[] {
  const roles: [RecordingKeyRole, KeySpec | null][] = [
    ...b.cancel.map((c): [RecordingKeyRole, KeySpec] => ['cancel', c]),
    ['restart', b.restart],
    ['prev-mode', b.prevMode],
    ['next-mode', b.nextMode],
  ];
  const talkCodes = new Set(b.talk.flatMap((t) => t.codes));
  const sets = heldModifierSets(b, platform);
  const out: RecordingShortcut[] = [];
  const seen = new Set<string>();
  for (const [role, spec] of roles) {
    if (spec === null || spec.codes.some((c) => talkCodes.has(c))) continue;
    for (const held of sets) {
      const accelerator = acceleratorFor(spec, held, platform);
      if (accelerator === null || seen.has(accelerator.toLowerCase())) continue;
      seen.add(accelerator.toLowerCase());
      out.push({ accelerator, role, key: spec.name });
    }
  }
  return out;
}

/**
 * Which source acts on a recording key, so no press acts twice. Where the hook runs on X11 (XRecord) and
 * Windows (a low-level keyboard hook, called before hot keys are dispatched) it sees every key, grabbed or
 * not, with key-up and auto-repeat: the hook acts and the shortcut only consumes. On macOS a Carbon hot
 * key may be dispatched before the session event tap sees it, so the shortcut acts (and the hook skips the
 * roles that are registered); without a hook the shortcut is all there is.
 */
export function shortcutsAct(platform: NodeJS.Platform, hookRunning: boolean): boolean {
  return !hookRunning || platform === 'darwin';
}

/** A registration that did not take. */
export interface GrabFailure {
  readonly accelerator: string;
  readonly reason: string;
}

/** The registered recording shortcuts: `engage` at recording start, `release` at any exit from recording. */
export class RecordingKeyGrabs {
  private readonly held = new Map<string, RecordingShortcut>();
  private readonly d: { readonly registry: ShortcutRegistry; readonly onPress: (s: RecordingShortcut) => void };

  constructor(deps: { readonly registry: ShortcutRegistry; readonly onPress: (s: RecordingShortcut) => void }) {
    this.d = deps;
  }

  /**
   * Makes exactly `list` registered: keeps what already is (a restart stays recording: no gap in which a
   * key could leak), drops the rest, registers the new ones. Returns the ones that could not be registered.
   */
  engage(list: readonly RecordingShortcut[]): readonly GrabFailure[] {
    const wanted = new Map(list.map((s) => [s.accelerator, s]));
    for (const [acc, s] of this.held) {
      if (wanted.get(acc)?.role !== s.role) this.drop(acc);
    }
    const failed: GrabFailure[] = [];
    for (const s of list) {
      if (this.held.has(s.accelerator)) continue;
      try {
        if (this.d.registry.register(s.accelerator, () => this.pressed(s.accelerator))) this.held.set(s.accelerator, s);
        else failed.push({ accelerator: s.accelerator, reason: 'already used by another app or by the system' });
      } catch (err) {
        failed.push({ accelerator: s.accelerator, reason: err instanceof Error ? err.message : String(err) });
      }
    }
    return failed;
  }

  /** Unregisters everything (the keys reach the focused app again). */
  release(): void {
    for (const acc of [...this.held.keys()]) this.drop(acc);
  }

  /** Accelerators registered now. */
  accelerators(): readonly string[] {
    return [...this.held.keys()];
  }

  /** Roles with at least one registered accelerator (the hook leaves those to the shortcut where it acts). */
  consumedRoles(): ReadonlySet<RecordingKeyRole> {
    return new Set([...this.held.values()].map((s) => s.role));
  }

  private pressed(accelerator: string): void {
    // A press queued before the release is not one of this recording's.
    const s = this.held.get(accelerator);
    if (s !== undefined) this.d.onPress(s);
  }

  private drop(accelerator: string): void {
    this.held.delete(accelerator);
    try {
      this.d.registry.unregister(accelerator);
    } catch {
      // Unregistering something Electron no longer holds is not worth failing a recording over.
    }
  }
}
