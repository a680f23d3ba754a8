/**
 * Text insertion: the controller's OutputPort over a clipboard, focus and keystroke port. A paste puts
 * the text on the clipboard (marked transient), re-focuses the window remembered at key-down when the
 * focus left it (the preview panel took it), sends the platform's paste keystroke (Ctrl+Shift+V for
 * Linux terminals), and a moment later puts the user's clipboard back unless it changed meanwhile.
 * Pastes run one after another (a restore must never capture the previous paste's text as "the user's
 * clipboard"). Any failure leaves the text on the clipboard and says so. Nothing here imports
 * electron: the app passes Electron's clipboard, tests xclip.
 */
import type { Notice } from '../../shared/notices/notice.ts';
import type { DeliveryOutcome, OutputPort } from '../ports/output-port.ts';
import type { FocusPort } from './focus.ts';
import type { KeystrokePort } from './keystroke.ts';
import { keysFor, restoreDecision, submitKeysFor, type FocusTarget, type SubmitKey } from './paste-plan.ts';

/** The clipboard as the paste needs it. Snapshots are opaque to this module. */
export interface ClipboardPort {
  readText(): Promise<string>;
  /** Everything on the clipboard now (as far as the adapter can keep it), to restore later. */
  snapshot(): Promise<unknown>;
  restore(snapshot: unknown): Promise<void>;
  /** Writes text marked as transient for clipboard managers (see transientMarkers). */
  writeTransient(text: string): Promise<void>;
  /** Writes text as an ordinary copy (copy-only output; stays on the clipboard). */
  writeText(text: string): Promise<void>;
}

/** Options of {@link PasteService}. */
export interface PasteServiceOptions {
  readonly platform: NodeJS.Platform;
  readonly clipboard: ClipboardPort;
  readonly focus: FocusPort;
  readonly keys: KeystrokePort;
  /** Whether to put the user's clipboard back (config output.restore_clipboard). */
  readonly restoreClipboard: () => boolean;
  /** Wait after re-focusing before the keystroke (the target must take focus first); no wait when the focus never left. */
  readonly settleMs?: number;
  /**
   * Wait after the paste keystroke before a submit key (Enter…): an X11 app asks the clipboard owner for
   * the text after it sees Ctrl+V, so an Enter sent at once could arrive before the text it should send.
   */
  readonly submitAfterMs?: number;
  /** Wait after the keystroke before restoring (the target reads the clipboard asynchronously; WenZi: 1 s). */
  readonly restoreAfterMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly log?: (level: 'info' | 'warn', message: string, fields?: Readonly<Record<string, unknown>>) => void;
}

/** What one delivery did (the OutputPort result plus details for tests and logs). */
export interface DeliveryResult {
  readonly ok: boolean;
  /** Why it failed, as a notice code (the words are chosen where it is shown). */
  readonly notice?: Notice;
  readonly keys?: string;
  /** Resolves once the clipboard has been restored (or left alone), i.e. when the next paste may start. */
  readonly finished: Promise<'restored' | 'kept'>;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Serialized clipboard-and-keystroke output. */
export class PasteService implements OutputPort {
  private readonly o: PasteServiceOptions;
  private readonly sleep: (ms: number) => Promise<void>;
  private tail: Promise<unknown> = Promise.resolve();
  private target: Promise<FocusTarget | null> = Promise.resolve(null);

  constructor(opts: PasteServiceOptions) {
    this.o = opts;
    this.sleep = opts.sleep ?? defaultSleep;
  }

  /** Remembers the focused window (call at key-down, before any Tingxie window can take focus). */
  rememberTarget(): void {
    this.target = this.o.focus.current().catch(() => null);
    // The keystroke's helper starts now, during the dictation, not while the user waits for the text.
    this.o.keys.prepare?.();
  }

  /** The remembered target (tests, logs). */
  remembered(): Promise<FocusTarget | null> {
    return this.target;
  }

  /** The id of the window focused now (null when it cannot be read). */
  private focusedId(): Promise<string | null> {
    const f = this.o.focus;
    const id = f.focusedId ? f.focusedId() : f.current().then((t) => t?.id ?? null);
    return id.catch(() => null);
  }

  /** OutputPort: paste into the remembered window, or copy. Never throws. */
  async deliver(text: string, action: 'paste' | 'copy', submit?: SubmitKey): Promise<DeliveryOutcome> {
    const r = await this.run(text, action, submit);
    return r.notice === undefined ? { ok: r.ok } : { ok: r.ok, notice: r.notice };
  }

  /** Like deliver, with the restore promise and the keystroke used. */
  run(text: string, action: 'paste' | 'copy', submit?: SubmitKey): Promise<DeliveryResult> {
    const result = this.tail.then(() => (action === 'copy' ? this.copy(text) : this.paste(text, submit)));
    // The queue waits for the restore too, not only for the keystroke.
    this.tail = result.then((r) => r.finished).catch(() => undefined);
    return result;
  }

  /**
   * Copies the selection of the focused app with its copy keystroke and returns it (the "enhance
   * selected text" action); the user's clipboard is put back. Null when nothing was selected.
   */
  copySelection(timeoutMs = 600): Promise<string | null> {
    const job = this.tail.then(async () => {
      const c = this.o.clipboard;
      const saved = await c.snapshot();
      const target = await this.o.focus.current().catch(() => null);
      const sentinel = `\u2063tingxie-${Date.now()}-${Math.random()}`;
      await c.writeTransient(sentinel);
      try {
        await this.o.keys.send(keysFor('copy', this.o.platform, target));
        for (let waited = 0; waited < timeoutMs; waited += 50) {
          await this.sleep(50);
          const now = await c.readText();
          if (now !== sentinel) return now === '' ? null : now;
        }
        return null;
      } finally {
        await c.restore(saved).catch((err: unknown) => this.o.log?.('warn', 'could not restore the clipboard after copying the selection', { error: String(err) }));
      }
    });
    this.tail = job.catch(() => undefined);
    return job;
  }

  private async copy(text: string): Promise<DeliveryResult> {
    try {
      await this.o.clipboard.writeText(text);
      return { ok: true, finished: Promise.resolve('kept') };
    } catch (err) {
      return { ok: false, notice: { code: 'copy-failed', reason: reason(err) }, finished: Promise.resolve('kept') };
    }
  }

  private async paste(text: string, submit?: SubmitKey): Promise<DeliveryResult> {
    const c = this.o.clipboard;
    const target = await this.target;
    // The user's clipboard and the focused window are read at the same time: both are a round trip to
    // the OS (a helper process each on X11), and the user is waiting for the text.
    const [saved, focused] = await Promise.all([
      c.snapshot().catch((err: unknown) => {
        this.o.log?.('warn', 'could not read the clipboard before pasting; it will not be restored', { error: String(err) });
        return null;
      }),
      target === null ? Promise.resolve(null) : this.focusedId(),
    ]);
    try {
      await c.writeTransient(text);
    } catch (err) {
      return { ok: false, notice: { code: 'copy-failed', reason: reason(err) }, finished: Promise.resolve('kept') };
    }
    let keys: string | undefined;
    try {
      // Re-focus (and give the window time to take the focus) only when it left the target: with the
      // preview off the focus never moves, and the fixed settle wait was most of the paste's time. A
      // focus that cannot be read counts as moved (never paste into the wrong app).
      if (target !== null && focused !== target.id) {
        await this.o.focus.activate(target);
        await this.sleep(this.o.settleMs ?? 60);
      }
      const k = keysFor('paste', this.o.platform, target);
      keys = k;
      await this.o.keys.send(k);
      if (submit !== undefined) {
        await this.sleep(this.o.submitAfterMs ?? 250);
        const s = submitKeysFor(submit, this.o.platform);
        keys = `${k} ${s}`;
        await this.o.keys.send(s);
      }
    } catch (err) {
      this.o.log?.('warn', 'paste failed; text left on the clipboard', { error: reason(err) });
      const notice: Notice = { code: 'paste-failed', reason: reason(err), app: target?.app || null };
      return { ok: false, notice, finished: Promise.resolve('kept'), ...(keys ? { keys } : {}) };
    }
    // The restore runs after the keystroke, off the user's path (the queue still waits for it).
    const finished = saved === null ? Promise.resolve<'kept'>('kept') : this.restoreLater(text, saved);
    return { ok: true, keys, finished };
  }

  private async restoreLater(written: string, saved: unknown): Promise<'restored' | 'kept'> {
    await this.sleep(this.o.restoreAfterMs ?? 1000);
    const c = this.o.clipboard;
    let current: string | null;
    try {
      current = await c.readText();
    } catch {
      current = null;
    }
    const d = restoreDecision({ enabled: this.o.restoreClipboard(), pasted: true, written, current });
    if (!d.restore) {
      this.o.log?.('info', 'clipboard not restored', { reason: d.reason });
      return 'kept';
    }
    try {
      await c.restore(saved);
      return 'restored';
    } catch (err) {
      this.o.log?.('warn', 'could not restore the clipboard', { error: String(err) });
      return 'kept';
    }
  }
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
