/**
 * Main's end of the capture window: sends `capture:command`s, receives frames and status reports
 * (through the `capture:*` IPC handlers), and implements the controller's CapturePort. `stop()` waits
 * for the window's `stopped` report and for every batch it announced, so the tail of the speech is
 * never cut; a window that does not answer within the grace period cannot hang a dictation.
 */
import type { CaptureCommand, CaptureStatus } from '../../shared/ipc/dictation-types.ts';
import type { CapturePort } from '../ports/dictation-ports.ts';

/** Options of {@link CaptureLink}. */
export interface CaptureLinkOptions {
  /** Sends a command to the capture window (the broadcaster in the app, a page in tests). */
  readonly send: (command: CaptureCommand) => void;
  /** How many batches main has received for a session (the controller's buffer). */
  readonly received: (sessionId: string) => number;
  /** Longest wait for the final batches after `stop` (ms). */
  readonly stopGraceMs?: number;
  readonly onStatus?: (status: CaptureStatus) => void;
  /**
   * The grace period ran out before the final batches arrived (a dead or stuck capture window): the
   * dictation goes on with what was received. Never expected in normal use, so the app logs it.
   */
  readonly onGraceExpired?: (sessionId: string, detail: { readonly received: number; readonly announced: number | null }) => void;
}

/** The capture window as a CapturePort. */
export class CaptureLink implements CapturePort {
  private readonly opts: CaptureLinkOptions;
  private readonly waiters = new Map<string, { frames: number | null; resolve: () => void }>();
  /** Last `ready`/`error` report (the tray and Settings show microphone problems). */
  status: CaptureStatus | null = null;

  constructor(opts: CaptureLinkOptions) {
    this.opts = opts;
  }

  /** Sends the warm-up configuration (device and pre-roll); call at start and when audio settings change. */
  configure(deviceId: string | null, preRollMs: number): void {
    this.opts.send({ action: 'configure', deviceId, preRollMs });
  }

  /** Starts streaming for `id`; `preRollMs` overrides the configured pre-roll for this session. */
  start(id: string, preRollMs?: number): void {
    this.opts.send(preRollMs === undefined ? { action: 'start', sessionId: id } : { action: 'start', sessionId: id, preRollMs });
  }

  stop(id: string): Promise<void> {
    return new Promise<void>((resolve) => {
      const grace = setTimeout(() => {
        this.opts.onGraceExpired?.(id, { received: this.opts.received(id), announced: this.waiters.get(id)?.frames ?? null });
        finish();
      }, this.opts.stopGraceMs ?? 1500);
      const finish = (): void => {
        clearTimeout(grace);
        this.waiters.delete(id);
        resolve();
      };
      this.waiters.set(id, { frames: null, resolve: finish });
      this.opts.send({ action: 'stop', sessionId: id });
    });
  }

  /** Releases the microphone (quit). */
  release(): void {
    this.opts.send({ action: 'release' });
  }

  /** A status report from the capture window. */
  report(status: CaptureStatus): void {
    if (status.state === 'stopped') {
      const w = this.waiters.get(status.sessionId);
      if (w) {
        w.frames = status.frames;
        this.check(status.sessionId);
      }
    } else {
      this.status = status;
    }
    this.opts.onStatus?.(status);
  }

  /** Called after each received batch: completes a pending stop once every announced batch is in. */
  check(sessionId: string): void {
    const w = this.waiters.get(sessionId);
    if (w && w.frames !== null && this.opts.received(sessionId) >= w.frames) w.resolve();
  }
}
