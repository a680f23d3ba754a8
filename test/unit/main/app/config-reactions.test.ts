import { describe, expect, it } from 'vitest';
import { reactToConfigChanges } from '../../../../src/main/app/config-reactions.ts';

describe('reactToConfigChanges', () => {
  it('re-applies only what the changed part touches; the tray always; a clean hotkey apply clears the tray problem', () => {
    let listener: ((e: { keyPath: string }) => void) | null = null;
    const calls: string[] = [];
    const stop = reactToConfigChanges({
      onChange: (l) => ((listener = l), () => void (listener = null)),
      hotkeys: { apply: () => (calls.push('hotkeys'), { hook: 'running', hookError: null, toggle: null, problems: [] }) },
      setProblem: (source, text) => calls.push(`problem ${source} ${text}`),
      configureCapture: () => calls.push('capture'),
      launchAtLogin: () => calls.push('login'),
      updateTray: () => calls.push('tray'),
    });
    const fire = (keyPath: string): string[] => (calls.length = 0, listener?.({ keyPath }), [...calls]);
    expect(fire('recording.mode')).toEqual(['hotkeys', 'problem hotkeys null', 'tray']);
    expect(fire('audio.device')).toEqual(['capture', 'tray']);
    expect(fire('app.launch_at_login')).toEqual(['login', 'tray']);
    expect(fire('ui.language')).toEqual(['tray']);
    expect(fire('')).toEqual(['hotkeys', 'problem hotkeys null', 'capture', 'login', 'tray']);
    stop();
    expect(listener).toBeNull();
  });
});
