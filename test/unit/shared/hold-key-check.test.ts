import { describe, expect, it } from 'vitest';
import { checkHoldKey } from '../../../src/shared/hold-key-check.ts';
import { keyDisplayName } from '../../../src/shared/key-names.ts';

const roles = { cancel: 'space', restart: '', prevMode: 'left', nextMode: 'right' };

describe('checkHoldKey: a hold-to-talk key is checked before it is saved', () => {
  it.each([
    ['alt_r', 'linux', { level: 'ok' }],
    ['ctrl_r', 'win32', { level: 'ok' }],
    ['f13', 'darwin', { level: 'ok' }],
    ['fn', 'darwin', { level: 'ok' }],
    ['cmd_r', 'darwin', { level: 'ok' }],
    ['a', 'linux', { level: 'error', reason: 'typing' }],
    ['7', 'linux', { level: 'error', reason: 'typing' }],
    ['enter', 'darwin', { level: 'error', reason: 'typing' }],
    ['esc', 'linux', { level: 'error', reason: 'escape' }],
    ['ctrl+r', 'linux', { level: 'error', reason: 'combo' }],
    ['fn', 'win32', { level: 'error', reason: 'fn-not-mac' }],
    ['caps_lock', 'darwin', { level: 'error', reason: 'reserved' }],
    ['cmd_r', 'win32', { level: 'error', reason: 'reserved' }],
    ['left', 'linux', { level: 'error', reason: 'clash', role: 'prevMode' }],
    ['ctrl_l', 'linux', { level: 'warning', reason: 'shortcut-modifier' }],
    ['shift_r', 'darwin', { level: 'warning', reason: 'shortcut-modifier' }],
  ] as const)('%s on %s', (key, platform, verdict) => {
    expect(checkHoldKey(key, platform, roles)).toEqual(verdict);
  });

  it('a key another role uses is a clash with that role, whatever its case', () => {
    expect(checkHoldKey('F13', 'linux', { ...roles, restart: 'f13' })).toEqual({ level: 'error', reason: 'clash', role: 'restart' });
  });
});

describe('keyDisplayName in Chinese', () => {
  it.each([
    ['alt_r', 'linux', '右 Alt'],
    ['ctrl_l', 'win32', '左 Ctrl'],
    ['alt_r', 'darwin', '右 ⌥ Option'],
    ['space', 'linux', '空格键'],
    ['enter', 'darwin', '↩ 回车键'],
    ['fn', 'darwin', 'fn / 🌐 地球仪键'],
    ['f13', 'linux', 'F13'],
    ['ctrl+space', 'linux', 'Ctrl + 空格键'],
  ])('%s on %s', (key, platform, name) => {
    expect(keyDisplayName(key, platform, 'zh')).toBe(name);
  });

  it('English stays the default', () => {
    expect(keyDisplayName('alt_r', 'linux')).toBe('Right Alt');
  });
});
