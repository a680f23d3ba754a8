// Child process of x11-input.test.ts: runs the real key hook (uiohook-napi) and the hotkey router on
// the display in $DISPLAY and prints each action as a JSON line. A child, not the test worker, because
// the native hook owns a thread and must be stopped cleanly whatever the test does.
import { bindingsFromConfig, HotkeyRouter } from '../../../src/main/dictation/hotkey-router.ts';
import { startKeyHook } from '../../../src/main/platform/key-hook.ts';

const { bindings, problems } = bindingsFromConfig({
  hotkeys: { [process.argv[2] ?? 'alt_r']: true },
  recording: { mode: 'hold', prev_mode_key: 'left', next_mode_key: 'right' },
  feedback: { cancel_key: 'space', restart_key: 'cmd' },
});
if (problems.length > 0) throw new Error(JSON.stringify(problems));
const router = new HotkeyRouter(bindings);
const started = startKeyHook();
if (!started.ok) {
  console.log(JSON.stringify({ error: started.error }));
  process.exit(2);
}
let recording = false;
started.hook.onKey((kind, e) => {
  const actions = kind === 'down' ? router.keydown(e, recording) : router.keyup(e);
  for (const a of actions) {
    if (a.type === 'hold-down') recording = true;
    if (a.type === 'hold-up' || a.type === 'cancel') recording = false;
    console.log(JSON.stringify(a));
  }
});
console.log(JSON.stringify({ ready: true }));
const stop = (): void => {
  started.hook.stop();
  process.exit(0);
};
process.stdin.on('end', stop);
process.stdin.resume();
setTimeout(stop, 15_000).unref();
