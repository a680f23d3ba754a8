// The hidden capture window: a warm Recorder driven by main's `capture:command` events.
import { bridge, hasBridge } from '../lib/bridge.ts';
import { Recorder } from './capture.ts';

if (hasBridge()) {
  const recorder = new Recorder({
    frames: (batch) => bridge.capture.frames(batch),
    status: (status) => bridge.capture.status(status),
  });
  bridge.on.captureCommand((command) => {
    switch (command.action) {
      case 'configure':
        void recorder.configure(command.deviceId, command.preRollMs);
        return;
      case 'start':
        recorder.start(command.sessionId, command.preRollMs);
        return;
      case 'stop':
        void recorder.stop(command.sessionId);
        return;
      case 'release':
        void recorder.release();
        return;
    }
  });
}
