// The recording indicator window: follows `dictation:event` (state + level) and plays the start/stop
// sounds main asks for over `dictation:sound` (played here, in a window, because main has no audio output).
import startUrl from '../../../assets/sounds/start.wav?url';
import stopUrl from '../../../assets/sounds/stop.wav?url';
import { bridge, hasBridge } from '../lib/bridge.ts';
import { boolAt, choiceAt } from '../lib/config-view.ts';
import { liveTextShown } from '../../shared/live-text.ts';
import { mountIndicator } from './indicator-view.ts';
import './indicator.css';

const root = document.getElementById('root');
if (root !== null && hasBridge()) {
  // Retry on the indicator: the last failed dictation again (as the tray's "Retry Last Dictation").
  const indicator = mountIndicator(root, 'en', () => void bridge.dictation.retryLast().catch(() => undefined));
  bridge.on.dictationEvent((e) => indicator.apply(e));
  // The UI language (config `ui.language`, resolved against the OS by main), again whenever the config changes.
  // Messages from main that are not part of a dictation's events (the microphone, the hotkeys).
  bridge.on.appNotice((n) => indicator.apply({ kind: 'notice', sessionId: null, level: n.level, notice: n.notice }));
  const language = (): void => {
    bridge.app.info().then((i) => indicator.setLanguage(i.uiLanguage), () => undefined);
    // Failures open the panel when previewing (or when direct mode opted in): the message's next step says where.
    bridge.config.get().then(
      (c) => {
        indicator.setPanelShowsFailures(boolAt(c, 'output.preview', true) || boolAt(c, 'output.preview_on_failure', false));
        // The text so far, by the rule main sizes the window by (defaults as in config-schema.ts).
        indicator.setLiveText(
          liveTextShown({
            visual_indicator: boolAt(c, 'feedback.visual_indicator', true),
            live_text: boolAt(c, 'feedback.live_text', false),
            engine: choiceAt(c, 'asr.engine', ['local', 'remote'] as const, 'local'),
            decode_while_speaking: boolAt(c, 'asr.local.decode_while_speaking', true),
          }),
        );
      },
      () => undefined,
    );
  };
  language();
  bridge.on.configChanged(language);
  const sounds = { start: new Audio(startUrl), stop: new Audio(stopUrl) };
  for (const a of Object.values(sounds)) a.preload = 'auto';
  bridge.on.dictationSound(({ which, volume }) => {
    const a = sounds[which];
    a.volume = Math.max(0, Math.min(1, volume));
    a.currentTime = 0;
    void a.play().catch(() => undefined);
  });
}
