import { describe, expect, it } from 'vitest';
import { displayShortcut, isConflicting, recordKey, type KeyInput } from '../../../src/renderer/lib/shortcut.ts';

const key = (code: string, k: string, mods: Partial<KeyInput> = {}): KeyInput => ({ key: k, code, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });

describe('shortcut recorder', () => {
  it('keeps recording on modifier-only presses and refuses plain or Shift-only letters', () => {
    expect(recordKey(key('ControlLeft', 'Control', { ctrlKey: true }), 'linux')).toEqual({ kind: 'pending' });
    expect(recordKey(key('KeyA', 'a'), 'linux')).toEqual({ kind: 'invalid' });
    expect(recordKey(key('KeyA', 'A', { shiftKey: true }), 'linux')).toEqual({ kind: 'invalid' });
  });

  it('maps Ctrl to CommandOrControl off macOS and ⌘ to it on macOS, by physical key', () => {
    expect(recordKey(key('KeyD', 'd', { ctrlKey: true, shiftKey: true }), 'linux')).toEqual({ kind: 'done', accelerator: 'CommandOrControl+Shift+D' });
    expect(recordKey(key('KeyD', 'ð', { metaKey: true, altKey: true }), 'darwin')).toEqual({ kind: 'done', accelerator: 'CommandOrControl+Alt+D' });
    expect(recordKey(key('KeyD', 'd', { ctrlKey: true }), 'darwin')).toEqual({ kind: 'done', accelerator: 'Control+D' });
    expect(recordKey(key('KeyD', 'd', { metaKey: true }), 'win32')).toEqual({ kind: 'done', accelerator: 'Super+D' });
  });

  it('lets F-keys stand alone and refuses keys Electron cannot bind', () => {
    expect(recordKey(key('F8', 'F8'), 'linux')).toEqual({ kind: 'done', accelerator: 'F8' });
    expect(recordKey(key('IntlRo', 'ろ', { ctrlKey: true }), 'linux')).toEqual({ kind: 'invalid' });
  });

  it('flags common conflicts and displays CommandOrControl per platform', () => {
    expect(isConflicting('CommandOrControl+V')).toBe(true);
    expect(isConflicting('Alt+Tab')).toBe(true);
    expect(isConflicting('CommandOrControl+Shift+D')).toBe(false);
    expect(displayShortcut('CommandOrControl+Shift+Space', 'darwin')).toBe('⌘+Shift+Space');
    expect(displayShortcut('CommandOrControl+Shift+Space', 'linux')).toBe('Ctrl+Shift+Space');
  });
});
