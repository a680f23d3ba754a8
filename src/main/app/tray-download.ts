/**
 * Model downloads on the tray: turns the settings services' `models:progress` states into the tray's
 * `download` field ("Downloading base… 42%"), and clears it when the download is done, failed or
 * cancelled. Several downloads at once show the one that started last; the others take its place when
 * it ends. Pure (no Electron), so the composition root only connects it.
 */
import type { ModelDownloadState } from '../../shared/ipc/settings-types.ts';
import type { TrayState } from './tray-menu.ts';

/** The tray's download field for a download's state: percent of the total, 0 while the size is unknown. */
export function trayDownloadOf(name: string, d: Extract<ModelDownloadState, { state: 'downloading' }>): NonNullable<TrayState['download']> {
  const percent = d.total !== null && d.total > 0 ? (d.received / d.total) * 100 : 0;
  return { name, percent: Math.max(0, Math.min(100, percent)) };
}

/** Returns the progress listener that keeps the tray's `download` field in step with the downloads. */
export function trayDownloadTracker(update: (patch: Pick<TrayState, 'download'>) => void): (name: string, download: ModelDownloadState) => void {
  // Insertion order = start order; the last entry is the one shown.
  const active = new Map<string, NonNullable<TrayState['download']>>();
  let shown: string | null = null;
  let shownPercent = -1;
  return (name, download) => {
    switch (download.state) {
      case 'downloading':
        active.set(name, trayDownloadOf(name, download));
        break;
      case 'done':
      case 'paused':
      case 'failed':
        active.delete(name);
        break;
      default: {
        const never: never = download;
        throw new Error(`unknown download state ${JSON.stringify(never)}`);
      }
    }
    const last = [...active.values()].at(-1) ?? null;
    if (last === null) {
      if (shown !== null) update({ download: null });
      shown = null;
      return;
    }
    // Redraw only when the line would read differently: each redraw rebuilds the native menu.
    const percent = Math.round(last.percent);
    if (shown !== last.name || shownPercent !== percent) update({ download: last });
    shown = last.name;
    shownPercent = percent;
  };
}
