/** `capture:*` and `dictation:*` handlers: thin wrappers over the dictation service. */
import type { IpcHandlers } from '../dispatcher.ts';
import { IpcPayloadError } from '../errors.ts';
import type { DictationIpcService } from '../../dictation/dictation-service.ts';

type DictationChannels =
  | 'capture:frames'
  | 'capture:status'
  | 'dictation:status'
  | 'dictation:confirm'
  | 'dictation:cancel'
  | 'dictation:recoverable'
  | 'dictation:recover'
  | 'dictation:hotkeys'
  | 'dictation:modes'
  | 'dictation:set-mode'
  | 'dictation:prompt'
  | 'dictation:deliver'
  | 'dictation:hide-panel'
  | 'dictation:retry'
  | 'dictation:retry-last'
  | 'dictation:rerun';

/** Only the hidden capture page may stream audio into a session. */
function isCapturePage(frameUrl: string): boolean {
  try {
    return /\/capture\/(index\.html)?$/.test(new URL(frameUrl).pathname);
  } catch {
    return false;
  }
}

/** Decodes a validated base64 batch into samples (little-endian Float32). */
function decode(base64: string): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.byteLength >> 2);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

/** Handlers of the dictation feature; `service` is absent until the controller is up. */
export function dictationHandlers(service: DictationIpcService | undefined): Pick<IpcHandlers, DictationChannels> {
  const svc = (): DictationIpcService => {
    if (!service) throw new Error('dictation is not available in this window set-up');
    return service;
  };
  const fromCapture = (frameUrl: string): void => {
    if (!isCapturePage(frameUrl)) throw new IpcPayloadError('only the capture window may send audio', [{ path: '(root)', message: 'sender is not the capture window' }]);
  };
  return {
    'capture:frames': ({ sessionId, seq, sampleRate, pcm }, ctx) => {
      fromCapture(ctx.sender.frameUrl);
      const samples = decode(pcm);
      if (samples.some((x) => !Number.isFinite(x))) throw new IpcPayloadError('audio contains NaN or infinite samples', [{ path: 'pcm', message: 'not finite' }]);
      svc().frames(sessionId, seq, sampleRate, samples);
      return null;
    },
    'capture:status': (status, ctx) => {
      fromCapture(ctx.sender.frameUrl);
      // The schema guaranteed the fields each state needs.
      svc().captureStatus(
        status.state === 'ready'
          ? { state: 'ready', sampleRate: status.sampleRate ?? 0, deviceLabel: status.deviceLabel ?? '' }
          : status.state === 'stopped'
            ? { state: 'stopped', sessionId: status.sessionId ?? '', frames: status.frames ?? 0 }
            : { state: 'error', message: status.message ?? '' },
      );
      return null;
    },
    'dictation:status': () => svc().snapshot(),
    'dictation:confirm': ({ sessionId, text, action }) => {
      svc().confirm(sessionId, text, action);
      return null;
    },
    'dictation:cancel': ({ sessionId }) => {
      svc().cancel(sessionId);
      return null;
    },
    'dictation:recoverable': () => svc().recoverable(),
    'dictation:recover': ({ id, action }) => {
      svc().recover(id, action);
      return null;
    },
    'dictation:hotkeys': () => svc().hotkeys(),
    'dictation:modes': () => svc().modes(),
    'dictation:set-mode': ({ sessionId, mode }) => {
      svc().setMode(sessionId, mode);
      return null;
    },
    'dictation:prompt': ({ sessionId, mode }) => svc().prompt(sessionId, mode),
    'dictation:deliver': async ({ text, action, sessionId }) => {
      await svc().deliver(text, action, sessionId);
      return null;
    },
    'dictation:hide-panel': () => {
      svc().hidePanel();
      return null;
    },
    'dictation:retry': ({ sessionId }) => svc().retry(sessionId),
    'dictation:retry-last': () => svc().retryLast(),
    'dictation:rerun': ({ text, mode, sttModel }) => {
      svc().rerun(text, mode, sttModel);
      return null;
    },
  };
}
