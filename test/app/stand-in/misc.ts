/**
 * The smaller modules: dialog (error boxes recorded; message boxes wait for the test's answer, as a
 * modal waits for the user), shell (recorded, nothing opened), screen (the Xvfb display's real
 * geometry and pointer, via xdpyinfo/xdotool), safeStorage (real AES-256-GCM with a test key, as a
 * keyring-backed Linux store), systemPreferences (macOS only: any use here fails loudly).
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import { record } from './runtime.ts';
import { ElectronStandInError, strict } from './strict.ts';

/** A message box waiting for an answer. */
export interface PendingDialog {
  readonly id: number;
  readonly options: Record<string, unknown>;
  answer(response: number): void;
}

/** Message boxes shown and not yet answered. */
export const pendingDialogs = new Map<number, PendingDialog>();
/** Every message box shown (answered or not), for tests. */
export const shownDialogs: Record<string, unknown>[] = [];
let nextDialog = 1;

export const dialog = strict('dialog', {
  showErrorBox(title: string, content: string): void {
    record.errorBoxes.push({ title, content });
    console.error(`[electron stand-in] error box: ${title}: ${content}`);
  },
  showMessageBox(...args: unknown[]): Promise<{ response: number; checkboxChecked: boolean }> {
    const options = (args.length > 1 ? args[1] : args[0]) as Record<string, unknown>;
    shownDialogs.push(options);
    const id = nextDialog++;
    return new Promise((resolve) => {
      pendingDialogs.set(id, {
        id,
        options,
        answer: (response) => {
          pendingDialogs.delete(id);
          resolve({ response, checkboxChecked: false });
        },
      });
    });
  },
  showOpenDialog(): never {
    throw new ElectronStandInError('dialog.showOpenDialog (no file chooser in the harness)');
  },
  showSaveDialog(): never {
    throw new ElectronStandInError('dialog.showSaveDialog (no file chooser in the harness)');
  },
});

export const shell = strict('shell', {
  openExternal: async (url: string): Promise<void> => {
    record.openedExternal.push(url);
  },
  openPath: async (p: string): Promise<string> => {
    record.openedPaths.push(p);
    return '';
  },
});

interface Display {
  id: number;
  bounds: { x: number; y: number; width: number; height: number };
  workArea: { x: number; y: number; width: number; height: number };
  size: { width: number; height: number };
  workAreaSize: { width: number; height: number };
  scaleFactor: number;
  rotation: number;
  internal: boolean;
}

let display: Display | null = null;
function theDisplay(): Display {
  if (display !== null) return display;
  if (!process.env.DISPLAY) throw new ElectronStandInError('screen without an X display (DISPLAY is not set)');
  const info = execFileSync('xdpyinfo', { encoding: 'utf8' });
  const m = /dimensions:\s+(\d+)x(\d+) pixels/.exec(info);
  if (!m) throw new Error('electron stand-in: xdpyinfo reported no screen dimensions');
  const width = Number(m[1]);
  const height = Number(m[2]);
  const rect = { x: 0, y: 0, width, height };
  display = { id: 1, bounds: rect, workArea: rect, size: { width, height }, workAreaSize: { width, height }, scaleFactor: 1, rotation: 0, internal: false };
  return display;
}

export const screen = strict('screen', {
  getAllDisplays: (): Display[] => [theDisplay()],
  getPrimaryDisplay: (): Display => theDisplay(),
  getDisplayNearestPoint: (): Display => theDisplay(),
  getCursorScreenPoint(): { x: number; y: number } {
    theDisplay();
    const out = execFileSync('xdotool', ['getmouselocation', '--shell'], { encoding: 'utf8' });
    return { x: Number(/X=(\d+)/.exec(out)?.[1] ?? 0), y: Number(/Y=(\d+)/.exec(out)?.[1] ?? 0) };
  },
});

/** A fixed test key: the harness's stand-in for the OS keyring's key. */
const KEY = crypto.createHash('sha256').update(process.env.TINGXIE_STANDIN_SAFE_STORAGE_KEY ?? 'tingxie electron stand-in').digest();

export const safeStorage = strict('safeStorage', {
  isEncryptionAvailable: (): boolean => true,
  getSelectedStorageBackend: (): string => 'gnome_libsecret',
  encryptString(plain: string): Buffer {
    const iv = crypto.randomBytes(12);
    const c = crypto.createCipheriv('aes-256-gcm', KEY, iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return Buffer.concat([Buffer.from('v10'), iv, c.getAuthTag(), body]);
  },
  decryptString(data: Buffer): string {
    if (data.subarray(0, 3).toString() !== 'v10') throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    const d = crypto.createDecipheriv('aes-256-gcm', KEY, data.subarray(3, 15));
    d.setAuthTag(data.subarray(15, 31));
    return Buffer.concat([d.update(data.subarray(31)), d.final()]).toString('utf8');
  },
});

/** macOS only; the app checks the platform first, so any call here is a bug worth failing on. */
export const systemPreferences = strict('systemPreferences', {});
