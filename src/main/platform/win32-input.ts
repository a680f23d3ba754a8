/**
 * Windows focus and paste through direct user32 calls (koffi, a Node-API FFI with prebuilt binaries),
 * instead of starting PowerShell and compiling an `Add-Type` class twice per dictation (1–3 s each).
 * Everything Windows-specific is decided here over a small `User32` seam, so the rules are unit-tested
 * with a fake on any OS; `loadUser32()` binds the real DLLs and is only ever called on win32 (lazily: the
 * koffi module is not even loaded elsewhere).
 *
 * Focus follows Windows' foreground-lock rules (SetForegroundWindow's documentation): a process may take
 * the foreground only while it is the foreground process or received the last input. Right after the
 * preview panel hides, Tingxie is neither, and a plain SetForegroundWindow is refused. Attaching this
 * thread's input state to the foreground window's thread (AttachThreadInput) lifts the restriction for
 * the call; the threads are detached again straight after.
 */
import { createRequire } from 'node:module';
import type { PasteKeys } from './paste-plan.ts';

/** The user32/kernel32 functions used (window handles as BigInt, as koffi 3 passes pointers). */
export interface User32 {
  GetForegroundWindow(): bigint;
  SetForegroundWindow(hwnd: bigint): boolean;
  BringWindowToTop(hwnd: bigint): boolean;
  IsWindow(hwnd: bigint): boolean;
  IsIconic(hwnd: bigint): boolean;
  ShowWindow(hwnd: bigint, cmd: number): boolean;
  /** The id of the thread that created the window (0 when the handle is invalid). */
  GetWindowThreadProcessId(hwnd: bigint): number;
  GetCurrentThreadId(): number;
  AttachThreadInput(attach: number, to: number, on: boolean): boolean;
  /** Bit 15 set = the key is down now. */
  GetAsyncKeyState(vk: number): number;
  /** Injects keyboard events; returns how many were inserted. */
  SendInput(events: readonly KeyEvent[]): number;
}

/** One synthetic key event (a virtual-key code going down or up). */
export interface KeyEvent {
  readonly vk: number;
  readonly up: boolean;
}

/** Virtual-key codes (WinUser.h). */
export const VK = {
  RETURN: 0x0d, SHIFT: 0x10, CONTROL: 0x11, MENU: 0x12, C: 0x43, V: 0x56, LWIN: 0x5b, RWIN: 0x5c,
  LSHIFT: 0xa0, RSHIFT: 0xa1, LCONTROL: 0xa2, RCONTROL: 0xa3, LMENU: 0xa4, RMENU: 0xa5,
} as const;

const SW_RESTORE = 9;
const INPUT_KEYBOARD = 1;
const KEYEVENTF_KEYUP = 0x2;

/** How the window was brought back (logs and tests). */
export type ActivateResult = 'already-foreground' | 'set' | 'set-attached';

/** Parses a FocusTarget id (a decimal HWND) back to a handle. */
export function hwndOf(id: string): bigint {
  if (!/^\d+$/.test(id) || id === '0') throw new Error(`not a window handle: ${id}`);
  return BigInt(id);
}

/** The foreground window as a FocusTarget id, or null when there is none (the desktop switching, a locked screen). */
export function foregroundId(u: User32): string | null {
  const h = u.GetForegroundWindow();
  return h === 0n ? null : h.toString();
}

/**
 * Brings `hwnd` to the foreground, within the foreground-lock rules. Throws a readable reason when the
 * window is gone or Windows still refuses (the paste then leaves the text on the clipboard).
 */
export function activateWindow(u: User32, hwnd: bigint): ActivateResult {
  if (!u.IsWindow(hwnd)) throw new Error('the window to paste into was closed');
  const before = u.GetForegroundWindow();
  if (before === hwnd) return 'already-foreground';
  if (u.IsIconic(hwnd)) u.ShowWindow(hwnd, SW_RESTORE);
  if (u.SetForegroundWindow(hwnd) && u.GetForegroundWindow() === hwnd) return 'set';
  // Refused: borrow the foreground thread's input state for the call (and give it back at once).
  const self = u.GetCurrentThreadId();
  const fg = before === 0n ? 0 : u.GetWindowThreadProcessId(before);
  const attached = fg !== 0 && fg !== self && u.AttachThreadInput(self, fg, true);
  try {
    u.BringWindowToTop(hwnd);
    u.SetForegroundWindow(hwnd);
  } finally {
    if (attached) u.AttachThreadInput(self, fg, false);
  }
  if (u.GetForegroundWindow() === hwnd) return 'set-attached';
  throw new Error('Windows refused to bring the window back to the front (foreground lock)');
}

/** Modifiers that may still be held from the dictation key, which would turn Ctrl+V into Ctrl+Alt+V. */
const STRAY_MODIFIERS: readonly number[] = [VK.LMENU, VK.RMENU, VK.LWIN, VK.RWIN, VK.LSHIFT, VK.RSHIFT];

/**
 * The key events of a paste/copy chord. Modifiers still held (the dictation key, Right Alt, may not be
 * up yet) are released while Ctrl is already down, so releasing Alt cannot open the target's menu bar —
 * the Windows counterpart of `xdotool --clearmodifiers`.
 */
export function chordEvents(keys: PasteKeys, isDown: (vk: number) => boolean): readonly KeyEvent[] {
  const parts = keys.split('+');
  const last = parts.at(-1);
  const key = last === 'c' ? VK.C : last === 'Return' ? VK.RETURN : VK.V;
  const shift = parts.includes('shift');
  const ctrl = parts.includes('ctrl');
  const stray = STRAY_MODIFIERS.filter((vk) => isDown(vk) && !(shift && (vk === VK.LSHIFT || vk === VK.RSHIFT)));
  return [
    ...(ctrl ? [{ vk: VK.CONTROL, up: false }] : []),
    ...stray.map((vk) => ({ vk, up: true })),
    ...(shift ? [{ vk: VK.SHIFT, up: false }] : []),
    { vk: key, up: false },
    { vk: key, up: true },
    ...(shift ? [{ vk: VK.SHIFT, up: true }] : []),
    ...(ctrl ? [{ vk: VK.CONTROL, up: true }] : []),
  ];
}

/** Sends a paste/copy chord with SendInput; throws when Windows inserted fewer events than sent. */
export function sendChord(u: User32, keys: PasteKeys): void {
  if (keys.startsWith('cmd')) throw new Error(`${keys} is a macOS chord`);
  const events = chordEvents(keys, (vk) => (u.GetAsyncKeyState(vk) & 0x8000) !== 0);
  const sent = u.SendInput(events);
  // SendInput reports 0 when another thread blocks input; UIPI (an elevated target) is not reported at all.
  if (sent !== events.length) throw new Error(`SendInput inserted ${sent} of ${events.length} key events (input is blocked)`);
}

/** The koffi module's surface used here (typed loosely: koffi's own types are `any` for calls). */
interface Koffi {
  load(path: string): { func(definition: string): (...args: unknown[]) => unknown };
  struct(name: string, def: Record<string, unknown>): unknown;
  union(def: Record<string, unknown>): unknown;
  sizeof(type: unknown): number;
}

/** Win32's INPUT structure for koffi (exported so its layout is checked on any OS: 40 bytes on 64-bit). */
export function inputStruct(koffi: Koffi): unknown {
  // Fixed-width members: C `long` is 32-bit on Windows but 64-bit on Linux/macOS, where the layout is tested.
  const MOUSEINPUT = koffi.struct('TX_MOUSEINPUT', { dx: 'int32_t', dy: 'int32_t', mouseData: 'uint32_t', dwFlags: 'uint32_t', time: 'uint32_t', dwExtraInfo: 'uintptr_t' });
  const KEYBDINPUT = koffi.struct('TX_KEYBDINPUT', { wVk: 'uint16_t', wScan: 'uint16_t', dwFlags: 'uint32_t', time: 'uint32_t', dwExtraInfo: 'uintptr_t' });
  const HARDWAREINPUT = koffi.struct('TX_HARDWAREINPUT', { uMsg: 'uint32_t', wParamL: 'uint16_t', wParamH: 'uint16_t' });
  return koffi.struct('TX_INPUT', { type: 'uint32_t', u: koffi.union({ mi: MOUSEINPUT, ki: KEYBDINPUT, hi: HARDWAREINPUT }) });
}

/** The C declarations bound (koffi's prototype syntax; their syntax is checked on any OS by the tests). */
export const USER32_DECLARATIONS = {
  GetForegroundWindow: 'void * __stdcall GetForegroundWindow()',
  SetForegroundWindow: 'int __stdcall SetForegroundWindow(void *hWnd)',
  BringWindowToTop: 'int __stdcall BringWindowToTop(void *hWnd)',
  IsWindow: 'int __stdcall IsWindow(void *hWnd)',
  IsIconic: 'int __stdcall IsIconic(void *hWnd)',
  ShowWindow: 'int __stdcall ShowWindow(void *hWnd, int nCmdShow)',
  GetWindowThreadProcessId: 'uint32_t __stdcall GetWindowThreadProcessId(void *hWnd, uint32_t *lpdwProcessId)',
  AttachThreadInput: 'int __stdcall AttachThreadInput(uint32_t idAttach, uint32_t idAttachTo, int fAttach)',
  GetAsyncKeyState: 'int16_t __stdcall GetAsyncKeyState(int vKey)',
  SendInput: 'uint32_t __stdcall SendInput(uint32_t cInputs, TX_INPUT *pInputs, int cbSize)',
} as const;
/** From kernel32. */
export const KERNEL32_DECLARATIONS = { GetCurrentThreadId: 'uint32_t __stdcall GetCurrentThreadId()' } as const;

let loaded: User32 | null = null;

/** Binds user32/kernel32 through koffi (once). Throws when koffi or its Windows binary is missing. */
export function loadUser32(): User32 {
  if (loaded !== null) return loaded;
  const koffi = createRequire(import.meta.url)('koffi') as Koffi;
  const user32 = koffi.load('user32.dll');
  const kernel32 = koffi.load('kernel32.dll');
  const INPUT = inputStruct(koffi);
  const u = (name: keyof typeof USER32_DECLARATIONS): ((...args: unknown[]) => unknown) => user32.func(USER32_DECLARATIONS[name]);
  const getForeground = u('GetForegroundWindow');
  const setForeground = u('SetForegroundWindow');
  const bringToTop = u('BringWindowToTop');
  const isWindow = u('IsWindow');
  const isIconic = u('IsIconic');
  const showWindow = u('ShowWindow');
  const threadOf = u('GetWindowThreadProcessId');
  const attachInput = u('AttachThreadInput');
  const asyncKeyState = u('GetAsyncKeyState');
  const sendInput = u('SendInput');
  const currentThread = kernel32.func(KERNEL32_DECLARATIONS.GetCurrentThreadId);
  const handle = (v: unknown): bigint => (typeof v === 'bigint' ? v : typeof v === 'number' ? BigInt(v) : 0n);
  const size = koffi.sizeof(INPUT);
  loaded = {
    GetForegroundWindow: () => handle(getForeground()),
    SetForegroundWindow: (h) => setForeground(h) !== 0,
    BringWindowToTop: (h) => bringToTop(h) !== 0,
    IsWindow: (h) => isWindow(h) !== 0,
    IsIconic: (h) => isIconic(h) !== 0,
    ShowWindow: (h, cmd) => showWindow(h, cmd) !== 0,
    GetWindowThreadProcessId: (h) => Number(threadOf(h, null)),
    GetCurrentThreadId: () => Number(currentThread()),
    AttachThreadInput: (a, b, on) => attachInput(a, b, on ? 1 : 0) !== 0,
    GetAsyncKeyState: (vk) => Number(asyncKeyState(vk)),
    SendInput: (events) => {
      const inputs = events.map((e) => ({ type: INPUT_KEYBOARD, u: { ki: { wVk: e.vk, wScan: 0, dwFlags: e.up ? KEYEVENTF_KEYUP : 0, time: 0, dwExtraInfo: 0 } } }));
      return Number(sendInput(inputs.length, inputs, size));
    },
  };
  return loaded;
}
