import { describe, expect, it } from 'vitest';
import { keyDisplayName, keyNameOf, type KeyPress } from '../../../src/shared/key-names.ts';

describe('keyDisplayName: config key names as each OS names the key', () => {
  it.each([
    ['alt_r', 'Right Alt', 'Right Alt', 'Right ⌥ Option'],
    ['alt_l', 'Left Alt', 'Left Alt', 'Left ⌥ Option'],
    ['ctrl_r', 'Right Ctrl', 'Right Ctrl', 'Right ⌃ Control'],
    ['shift_r', 'Right Shift', 'Right Shift', 'Right ⇧ Shift'],
    ['cmd', 'Super', 'Win', '⌘ Command'],
    ['cmd_r', 'Right Super', 'Right Win', 'Right ⌘ Command'],
    ['fn', 'Fn', 'Fn', 'fn / 🌐 Globe'],
    ['esc', 'Esc', 'Esc', 'Esc'],
    ['space', 'Space', 'Space', 'Space'],
    ['left', '←', '←', '←'],
    ['right', '→', '→', '→'],
    ['enter', 'Enter', 'Enter', '↩ Return'],
    ['backspace', 'Backspace', 'Backspace', '⌫ Delete'],
    ['delete', 'Delete', 'Delete', '⌦ Forward Delete'],
    ['f13', 'F13', 'F13', 'F13'],
    ['page_down', 'Page Down', 'Page Down', 'Page Down'],
    ['ctrl+cmd+1', 'Ctrl + Super + 1', 'Ctrl + Win + 1', '⌃ Control + ⌘ Command + 1'],
    ['Shift+A', 'Shift + A', 'Shift + A', '⇧ Shift + A'],
  ])('%s → Linux "%s", Windows "%s", macOS "%s"', (name, linux, win, mac) => {
    expect(keyDisplayName(name, 'linux')).toBe(linux);
    expect(keyDisplayName(name, 'win32')).toBe(win);
    expect(keyDisplayName(name, 'darwin')).toBe(mac);
  });

  it('no key is the empty string (the caller says "None"); an unknown name is shown as written', () => {
    expect(keyDisplayName('', 'linux')).toBe('');
    expect(keyDisplayName('  ', 'darwin')).toBe('');
    expect(keyDisplayName('hyper', 'linux')).toBe('hyper');
  });
});

describe('keyNameOf: the Settings key recorder’s keydown → config key name', () => {
  const press = (code: string, mods: Partial<KeyPress> = {}): KeyPress => ({ code, ctrlKey: false, altKey: false, shiftKey: false, metaKey: false, ...mods });

  it('keys by their layout-independent code', () => {
    expect(keyNameOf(press('Space'))).toBe('space');
    expect(keyNameOf(press('Escape'))).toBe('esc');
    expect(keyNameOf(press('ArrowLeft'))).toBe('left');
    expect(keyNameOf(press('KeyR'))).toBe('r');
    expect(keyNameOf(press('Digit1'))).toBe('1');
    expect(keyNameOf(press('F13'))).toBe('f13');
    expect(keyNameOf(press('Backspace'))).toBe('backspace');
  });

  it('a modifier alone names its side; another key with modifiers is a combo', () => {
    expect(keyNameOf(press('AltRight', { altKey: true }))).toBe('alt_r');
    expect(keyNameOf(press('MetaLeft', { metaKey: true }))).toBe('cmd_l');
    expect(keyNameOf(press('KeyR', { ctrlKey: true }))).toBe('ctrl+r');
    expect(keyNameOf(press('Digit1', { ctrlKey: true, metaKey: true }))).toBe('ctrl+cmd+1');
  });

  it('keys Tingxie cannot name give null', () => {
    expect(keyNameOf(press('MediaPlayPause'))).toBeNull();
    expect(keyNameOf(press('IntlRo'))).toBeNull();
  });

  it('every recorded name shows back as a readable name', () => {
    for (const code of ['Space', 'AltRight', 'ArrowRight', 'KeyZ', 'F5', 'PageUp']) {
      const name = keyNameOf(press(code));
      expect(name).not.toBeNull();
      expect(keyDisplayName(name ?? '', 'linux')).not.toMatch(/_/);
    }
  });
});
