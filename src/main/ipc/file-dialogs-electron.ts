/**
 * The Settings window's file dialogs over Electron's `dialog` (the browser tests use a recorder with
 * the same {@link FileDialogs} shape). Each resolves to the chosen path, or null when cancelled.
 */
import { dialog } from 'electron';
import type { DialogFilter, FileDialogs } from './settings-services.ts';

const toElectron = (filters: readonly DialogFilter[]) => filters.map((f) => ({ name: f.name, extensions: [...f.extensions] }));

/** Native open/save dialogs (app-modal: the Settings window stays usable behind them). */
export function electronFileDialogs(): FileDialogs {
  return {
    saveFile: async (defaultName, filters) => {
      const r = await dialog.showSaveDialog({ defaultPath: defaultName, filters: toElectron(filters) });
      return r.canceled || r.filePath === undefined || r.filePath === '' ? null : r.filePath;
    },
    openFile: async (filters) => {
      const r = await dialog.showOpenDialog({ properties: ['openFile'], filters: toElectron(filters) });
      return r.canceled ? null : (r.filePaths[0] ?? null);
    },
    openFolder: async () => {
      const r = await dialog.showOpenDialog({ properties: ['openDirectory'] });
      return r.canceled ? null : (r.filePaths[0] ?? null);
    },
  };
}
