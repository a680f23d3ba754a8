import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { applyLaunchAtLogin, autostartEntry, autostartFile } from '../../../../src/main/platform/login-item.ts';

// permissions.ts imports electron for systemPreferences; only its pure part is tested here.
vi.mock('electron', () => ({ systemPreferences: {} }));
const { permissionProblems } = await import('../../../../src/main/platform/permissions.ts');

describe('launch at login', () => {
  it('writes and removes a Linux autostart entry with a quoted Exec', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
    try {
      const file = autostartFile({ XDG_CONFIG_HOME: dir });
      expect(file).toBe(path.join(dir, 'autostart', 'tingxie.desktop'));
      applyLaunchAtLogin(true, { platform: 'linux', execPath: '/opt/Tingxie $x/tingxie', setLoginItem: () => expect.fail('not on linux'), file });
      expect(fs.readFileSync(file, 'utf8')).toContain('Exec="/opt/Tingxie \\$x/tingxie"');
      applyLaunchAtLogin(false, { platform: 'linux', execPath: '/x', setLoginItem: () => undefined, file });
      expect(fs.existsSync(file)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  it('uses Electron login items on macOS and Windows', () => {
    const calls: unknown[] = [];
    applyLaunchAtLogin(true, { platform: 'darwin', execPath: '/x', setLoginItem: (s) => calls.push(s) });
    applyLaunchAtLogin(false, { platform: 'win32', execPath: '/x', setLoginItem: (s) => calls.push(s) });
    expect(calls).toEqual([{ openAtLogin: true }, { openAtLogin: false }]);
    expect(autostartEntry('/a')).toMatch(/^\[Desktop Entry\]\nType=Application/);
  });
});

describe('macOS permission explanations', () => {
  it('says what is missing and where to allow it', () => {
    expect(permissionProblems('granted', true)).toEqual([]);
    const p = permissionProblems('denied', false);
    expect(p.map((x) => x.permission)).toEqual(['microphone', 'accessibility']);
    expect(p[0]?.message).toMatch(/Privacy & Security → Microphone/);
    expect(p[1]?.message).toMatch(/Accessibility/);
    expect(permissionProblems('restricted', true).map((x) => x.permission)).toEqual(['microphone']);
  });
});
