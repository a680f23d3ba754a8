/**
 * The `electron` module as the whole-app harness provides it to the built main process (a test tool: never
 * shipped, never imported by src/). Every export is backed by a real part — Chromium pages for windows, child
 * processes for utility processes, the X clipboard and X key grabs on Xvfb, AES for safeStorage — and every
 * API it does not implement throws ElectronStandInError. See docs/dev/TESTING.md, "Testing the whole app".
 */
import { app } from './app.ts';
import { BrowserWindow } from './browser-window.ts';
import { clipboard, ClipboardItem } from './clipboard.ts';
import { startControl } from './control.ts';
import { globalShortcut } from './global-shortcut.ts';
import { ipcMain } from './ipc-main.ts';
import { dialog, safeStorage, screen, shell, systemPreferences } from './misc.ts';
import { protocol } from './protocol.ts';
import { ElectronStandInError } from './strict.ts';
import { Menu, Tray, nativeImage } from './tray-menu.ts';
import { utilityProcess } from './utility-process.ts';

startControl();

/** Renderer-side modules have no meaning in main: using them there is a bug. */
const rendererOnly = (name: string): never => {
  throw new ElectronStandInError(`${name} in the main process`);
};

export { app, BrowserWindow, clipboard, ClipboardItem, dialog, globalShortcut, ipcMain, Menu, nativeImage, protocol, safeStorage, screen, shell, systemPreferences, Tray, utilityProcess };

export const contextBridge = new Proxy({}, { get: () => rendererOnly('contextBridge') });
export const ipcRenderer = new Proxy({}, { get: () => rendererOnly('ipcRenderer') });

export default { app, BrowserWindow, clipboard, ClipboardItem, dialog, globalShortcut, ipcMain, Menu, nativeImage, protocol, safeStorage, screen, shell, systemPreferences, Tray, utilityProcess };
