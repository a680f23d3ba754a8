/**
 * Windows focus and paste through user32, tested at the FFI seam: a fake User32 that keeps Windows'
 * foreground-lock rule (SetForegroundWindow is refused unless the caller's input is attached to the
 * foreground thread), and the real koffi on this OS for what can be checked without user32.dll — the
 * INPUT structure's layout and the syntax of every declaration. Only a Windows machine runs the calls.
 */
import { createRequire } from 'node:module';
import type * as KoffiModule from 'koffi';
import { describe, expect, it } from 'vitest';
import { windowsFocus, win32Focus } from '../../../../src/main/platform/focus.ts';
import { keystrokeStrategies } from '../../../../src/main/platform/keystroke.ts';
import { activateWindow, chordEvents, foregroundId, inputStruct, KERNEL32_DECLARATIONS, sendChord, USER32_DECLARATIONS, VK, type KeyEvent, type User32 } from '../../../../src/main/platform/win32-input.ts';

const SELF_THREAD = 1;
/** Windows by handle → the thread that owns them. */
class FakeUser32 implements User32 {
  foreground = 100n;
  readonly threads = new Map<bigint, number>([
    [100n, 7], // the panel's or whatever window is in front
    [200n, 9], // the target app
  ]);
  iconic = new Set<bigint>();
  /** Whether Windows lets this process set the foreground (it is the foreground process / had the last input). */
  mayTakeForeground = false;
  attachedTo: number | null = null;
  downKeys = new Set<number>();
  inserted: KeyEvent[] = [];
  insertLimit = Infinity;
  readonly calls: string[] = [];

  GetForegroundWindow = (): bigint => this.foreground;
  SetForegroundWindow = (h: bigint): boolean => {
    this.calls.push(`SetForegroundWindow(${h})`);
    if (!this.mayTakeForeground && this.attachedTo === null) return false;
    this.foreground = h;
    return true;
  };
  BringWindowToTop = (h: bigint): boolean => (this.calls.push(`BringWindowToTop(${h})`), true);
  IsWindow = (h: bigint): boolean => this.threads.has(h);
  IsIconic = (h: bigint): boolean => this.iconic.has(h);
  ShowWindow = (h: bigint, cmd: number): boolean => (this.calls.push(`ShowWindow(${h},${cmd})`), this.iconic.delete(h));
  GetWindowThreadProcessId = (h: bigint): number => this.threads.get(h) ?? 0;
  GetCurrentThreadId = (): number => SELF_THREAD;
  AttachThreadInput = (a: number, b: number, on: boolean): boolean => {
    this.calls.push(`AttachThreadInput(${a},${b},${on})`);
    this.attachedTo = on ? b : null;
    return true;
  };
  GetAsyncKeyState = (vk: number): number => (this.downKeys.has(vk) ? -32768 : 0);
  SendInput = (events: readonly KeyEvent[]): number => {
    const n = Math.min(events.length, this.insertLimit);
    this.inserted.push(...events.slice(0, n));
    return n;
  };
}

describe('activateWindow: the foreground-lock rules', () => {
  it('the target already in front (direct mode): nothing to do', () => {
    const u = new FakeUser32();
    u.foreground = 200n;
    expect(activateWindow(u, 200n)).toBe('already-foreground');
    expect(u.calls).toEqual([]);
  });

  it('allowed (Tingxie is the foreground process): one SetForegroundWindow', () => {
    const u = new FakeUser32();
    u.mayTakeForeground = true;
    expect(activateWindow(u, 200n)).toBe('set');
    expect(u.foreground).toBe(200n);
  });

  it('refused after the panel hid: attaches to the foreground thread for the call, then detaches', () => {
    const u = new FakeUser32();
    expect(activateWindow(u, 200n)).toBe('set-attached');
    expect(u.foreground).toBe(200n);
    expect(u.calls).toEqual(['SetForegroundWindow(200)', 'AttachThreadInput(1,7,true)', 'BringWindowToTop(200)', 'SetForegroundWindow(200)', 'AttachThreadInput(1,7,false)']);
    expect(u.attachedTo).toBeNull();
  });

  it('a minimised target is restored first', () => {
    const u = new FakeUser32();
    u.mayTakeForeground = true;
    u.iconic.add(200n);
    activateWindow(u, 200n);
    expect(u.calls[0]).toBe('ShowWindow(200,9)');
  });

  it('still refused, or the window closed: a readable error (the paste keeps the text on the clipboard)', () => {
    const u = new FakeUser32();
    u.AttachThreadInput = (a, b, on) => (u.calls.push(`AttachThreadInput(${a},${b},${on})`), false);
    expect(() => activateWindow(u, 200n)).toThrow(/refused.*foreground lock/);
    expect(() => activateWindow(u, 300n)).toThrow(/closed/);
  });

  it('win32Focus: the foreground handle as the remembered target, and back', async () => {
    const u = new FakeUser32();
    u.foreground = 200n;
    const f = win32Focus(() => u);
    expect(await f.current()).toEqual({ id: '200' });
    u.foreground = 100n;
    await f.activate({ id: '200' });
    expect(u.foreground).toBe(200n);
    await expect(f.activate({ id: 'not-a-handle' })).rejects.toThrow(/not a window handle/);
    u.foreground = 0n;
    expect(foregroundId(u)).toBeNull();
  });

  it('without koffi, windowsFocus falls back to PowerShell (which fails softly where there is none)', async () => {
    const f = windowsFocus(() => {
      throw new Error('Cannot find module koffi');
    });
    expect(await f.current()).toBeNull();
  });
});

describe('the paste chord through SendInput', () => {
  it('Ctrl+V as four events', () => {
    expect(chordEvents('ctrl+v', () => false)).toEqual([
      { vk: VK.CONTROL, up: false },
      { vk: VK.V, up: false },
      { vk: VK.V, up: true },
      { vk: VK.CONTROL, up: true },
    ]);
  });

  it('a dictation key still held (Right Alt) is released while Ctrl is down, so it cannot open the menu bar', () => {
    expect(chordEvents('ctrl+v', (vk) => vk === VK.RMENU)).toEqual([
      { vk: VK.CONTROL, up: false },
      { vk: VK.RMENU, up: true },
      { vk: VK.V, up: false },
      { vk: VK.V, up: true },
      { vk: VK.CONTROL, up: true },
    ]);
  });

  it('Ctrl+Shift+V keeps a held Shift', () => {
    expect(chordEvents('ctrl+shift+v', (vk) => vk === VK.LSHIFT).map((e) => `${e.vk}${e.up ? '↑' : '↓'}`)).toEqual([`${VK.CONTROL}↓`, `${VK.SHIFT}↓`, `${VK.V}↓`, `${VK.V}↑`, `${VK.SHIFT}↑`, `${VK.CONTROL}↑`]);
  });

  it('the submit keys after a paste: Enter alone, Shift+Enter, Ctrl+Enter (no Ctrl where the chord has none)', () => {
    const names = (k: Parameters<typeof chordEvents>[0]): string[] => chordEvents(k, () => false).map((e) => `${e.vk}${e.up ? '↑' : '↓'}`);
    expect(names('Return')).toEqual([`${VK.RETURN}↓`, `${VK.RETURN}↑`]);
    expect(names('shift+Return')).toEqual([`${VK.SHIFT}↓`, `${VK.RETURN}↓`, `${VK.RETURN}↑`, `${VK.SHIFT}↑`]);
    expect(names('ctrl+Return')).toEqual([`${VK.CONTROL}↓`, `${VK.RETURN}↓`, `${VK.RETURN}↑`, `${VK.CONTROL}↑`]);
  });

  it('sendChord injects them; fewer inserted than sent (input blocked) is an error; a macOS chord is refused', () => {
    const u = new FakeUser32();
    u.downKeys.add(VK.RMENU);
    sendChord(u, 'ctrl+v');
    expect(u.inserted).toHaveLength(5);
    u.insertLimit = 0;
    expect(() => sendChord(u, 'ctrl+v')).toThrow(/inserted 0 of 5/);
    expect(() => sendChord(u, 'cmd+v')).toThrow(/macOS/);
  });

  it('Windows tries SendInput first, then the hook’s keyTap, then PowerShell SendKeys', async () => {
    const u = new FakeUser32();
    const strategies = keystrokeStrategies({ platform: 'win32', display: 'none', keyTap: () => undefined, user32: () => u });
    expect(strategies.map((s) => s.name)).toEqual(['sendinput', 'uiohook', 'sendkeys']);
    await strategies[0]?.send('ctrl+v');
    expect(u.inserted.map((e) => e.vk)).toEqual([VK.CONTROL, VK.V, VK.V, VK.CONTROL]);
    const failing = keystrokeStrategies({ platform: 'win32', display: 'none', user32: () => {
      throw new Error('no koffi');
    } });
    await expect(failing[0]?.send('ctrl+v')).rejects.toThrow('no koffi');
  });
});

describe('the koffi binding, checked on this OS', () => {
  const koffi = createRequire(import.meta.url)('koffi') as typeof KoffiModule;
  const INPUT = inputStruct(koffi as never) as Parameters<typeof koffi.sizeof>[0];

  it('INPUT has Win32’s layout: 40 bytes on 64-bit (type + padding + the 32-byte MOUSEINPUT union), 28 on 32-bit', () => {
    expect(koffi.sizeof(INPUT)).toBe(process.arch === 'x64' || process.arch === 'arm64' ? 40 : 28);
  });

  it('every user32/kernel32 declaration parses as a C prototype', () => {
    for (const decl of [...Object.values(USER32_DECLARATIONS), ...Object.values(KERNEL32_DECLARATIONS)]) {
      expect(() => koffi.proto(decl), decl).not.toThrow();
    }
  });
});
