/**
 * Main's end of the hidden capture window: the link that configures it and receives its frames, with
 * the start and stop sounds played around the real capture (dictation/sounding-capture.ts), so they are
 * never recorded.
 */
import type { Config } from '../../shared/config/config-schema.ts';
import { CaptureLink } from '../dictation/capture-link.ts';
import { SoundingCapture } from '../dictation/sounding-capture.ts';
import type { Broadcast } from '../ipc/register.ts';
import type { Logger } from '../platform/logger.ts';
import { SOUND_MS } from '../platform/sounds.ts';
import type { Notify } from './app-notices.ts';

/** What {@link createAppCapture} needs. */
export interface AppCaptureDeps {
  readonly config: () => Config;
  /** Sends an event to every trusted window (null until IPC is up). */
  readonly broadcast: () => Broadcast | null;
  readonly notify: Notify;
  readonly log: Logger;
  /** Batches the controller has received for a session (0 before it exists). */
  readonly received: (sessionId: string) => number;
}

/** The capture link, the capture the controller drives, and the configure call (device, pre-roll). */
export interface AppCapture {
  readonly link: CaptureLink;
  readonly capture: SoundingCapture;
  /** Sends the configured device and pre-roll to the capture page. */
  configure(): void;
}

/** Builds the capture link and the sounding capture over it. */
export function createAppCapture(deps: AppCaptureDeps): AppCapture {
  const { config, log } = deps;
  const link = new CaptureLink({
    send: (command) => deps.broadcast()?.('capture:command', command),
    received: deps.received,
    onStatus: (s) => {
      if (s.state === 'error') deps.notify('error', { code: 'microphone-error', reason: s.message });
      else if (s.state === 'ready') log.info('microphone ready', { device: s.deviceLabel, sampleRate: s.sampleRate });
    },
    onGraceExpired: (sessionId, detail) => log.warn('capture stop waited the full grace period', { sessionId, ...detail }),
  });
  const capture = new SoundingCapture({
    inner: link,
    enabled: () => config().feedback.sound_enabled,
    play: (which) => deps.broadcast()?.('dictation:sound', { which, volume: config().feedback.sound_volume }),
    startSoundMs: SOUND_MS.start,
  });
  const configure = (): void => {
    const a = config().audio;
    link.configure(a.device, a.pre_roll_ms);
  };
  return { link, capture, configure };
}
