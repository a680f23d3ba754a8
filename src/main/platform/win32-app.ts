/**
 * The foreground app on Windows, for the input context and the app rules: the executable of the
 * foreground window's process (`WeChat.exe`) and the window's title, through direct user32/kernel32
 * calls (koffi, as win32-input.ts; loaded lazily and only on win32). The rules are decided over a small
 * `Win32AppApi` seam, unit-tested with a fake on any OS; the declarations' syntax is checked by koffi
 * on any OS too.
 *
 * Calls (Microsoft's documentation): GetForegroundWindow, GetWindowThreadProcessId (its `_Out_` PID, as
 * in koffi's own example: https://koffi.dev/output), OpenProcess with PROCESS_QUERY_LIMITED_INFORMATION
 * (0x1000: enough for QueryFullProcessImageNameW and allowed for most processes of the same user,
 * https://learn.microsoft.com/windows/win32/procthread/process-security-and-access-rights),
 * QueryFullProcessImageNameW, CloseHandle, GetWindowTextW.
 */
import { createRequire } from 'node:module';
import type { InputContextPort } from '../ports/input-context-port.ts';

/** What is asked of Windows (handles as BigInt, as koffi passes pointers). */
export interface Win32AppApi {
  /** The foreground window (0n when there is none). */
  foregroundWindow(): bigint;
  /** The id of the process that owns `hwnd` (0 when the handle is invalid). */
  processIdOf(hwnd: bigint): number;
  /** The full path of process `pid`'s executable, or null when it cannot be opened (elevated, gone). */
  imagePathOf(pid: number): string | null;
  /** The window's title ('' when it has none). */
  titleOf(hwnd: bigint): string;
}

/** The C declarations bound (koffi's prototype syntax). */
export const WIN32_APP_DECLARATIONS = {
  user32: {
    GetForegroundWindow: 'void * __stdcall GetForegroundWindow()',
    GetWindowThreadProcessId: 'uint32_t __stdcall GetWindowThreadProcessId(void *hWnd, _Out_ uint32_t *lpdwProcessId)',
    GetWindowTextW: 'int __stdcall GetWindowTextW(void *hWnd, _Out_ uint8_t *lpString, int nMaxCount)',
  },
  kernel32: {
    OpenProcess: 'void * __stdcall OpenProcess(uint32_t dwDesiredAccess, int bInheritHandle, uint32_t dwProcessId)',
    QueryFullProcessImageNameW: 'int __stdcall QueryFullProcessImageNameW(void *hProcess, uint32_t dwFlags, _Out_ uint8_t *lpExeName, _Inout_ uint32_t *lpdwSize)',
    CloseHandle: 'int __stdcall CloseHandle(void *hObject)',
  },
} as const;

const PROCESS_QUERY_LIMITED_INFORMATION = 0x1000;
/** Characters read of a title or a path (MAX_PATH is 260; long paths and titles are cut, not refused). */
const MAX_CHARS = 1024;

/** The executable's file name from its full path (`C:\…\WeChat.exe` → `WeChat.exe`). */
export function exeNameOf(path: string): string {
  return path.split(/[\\/]/).pop() ?? '';
}

/** The input-context port over `api` (null when the app cannot be told; never throws). */
export function win32InputContext(api: () => Win32AppApi): InputContextPort {
  return {
    capture(level) {
      try {
        const u = api();
        const hwnd = u.foregroundWindow();
        if (hwnd === 0n) return Promise.resolve(null);
        const pid = u.processIdOf(hwnd);
        const path = pid === 0 ? null : u.imagePathOf(pid);
        const exe = path === null ? '' : exeNameOf(path);
        if (exe === '') return Promise.resolve(null);
        // The app's name is the executable without `.exe` (what the user sees in Task Manager's details);
        // `bundle_id` keeps the file name, so a rule may name either.
        const title = level === 'detailed' ? u.titleOf(hwnd).replace(/\p{Cc}+/gu, ' ').trim().slice(0, 200) : '';
        return Promise.resolve({ app_name: exe.replace(/\.exe$/i, ''), bundle_id: exe, ...(title !== '' ? { window_title: title } : {}) });
      } catch {
        return Promise.resolve(null); // koffi missing, a call refused: the dictation goes without
      }
    },
  };
}

/** The koffi module's surface used here. */
interface Koffi {
  load(path: string): { func(definition: string): (...args: unknown[]) => unknown };
}

let loaded: Win32AppApi | null = null;

/** Binds the calls through koffi (once). Throws when koffi or its Windows binary is missing. */
export function loadWin32App(): Win32AppApi {
  if (loaded !== null) return loaded;
  const koffi = createRequire(import.meta.url)('koffi') as Koffi;
  const user32 = koffi.load('user32.dll');
  const kernel32 = koffi.load('kernel32.dll');
  const d = WIN32_APP_DECLARATIONS;
  const foreground = user32.func(d.user32.GetForegroundWindow);
  const threadProcess = user32.func(d.user32.GetWindowThreadProcessId);
  const windowText = user32.func(d.user32.GetWindowTextW);
  const openProcess = kernel32.func(d.kernel32.OpenProcess);
  const imageName = kernel32.func(d.kernel32.QueryFullProcessImageNameW);
  const closeHandle = kernel32.func(d.kernel32.CloseHandle);
  const handle = (v: unknown): bigint => (typeof v === 'bigint' ? v : typeof v === 'number' ? BigInt(v) : 0n);
  loaded = {
    foregroundWindow: () => handle(foreground()),
    processIdOf: (hwnd) => {
      const pid: number[] = [0];
      return Number(threadProcess(hwnd, pid)) === 0 ? 0 : Number(pid[0]);
    },
    imagePathOf: (pid) => {
      const h = openProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid);
      if (h === null || handle(h) === 0n) return null;
      try {
        const buf = Buffer.alloc(MAX_CHARS * 2);
        const size: number[] = [MAX_CHARS];
        if (Number(imageName(h, 0, buf, size)) === 0) return null;
        return buf.toString('utf16le', 0, Number(size[0]) * 2);
      } finally {
        closeHandle(h);
      }
    },
    titleOf: (hwnd) => {
      const buf = Buffer.alloc(MAX_CHARS * 2);
      const n = Number(windowText(hwnd, buf, MAX_CHARS));
      return n > 0 ? buf.toString('utf16le', 0, n * 2) : '';
    },
  };
  return loaded;
}
