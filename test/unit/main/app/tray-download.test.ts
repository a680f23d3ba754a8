import { describe, expect, it } from 'vitest';
import { trayDownloadOf, trayDownloadTracker } from '../../../../src/main/app/tray-download.ts';
import type { TrayState } from '../../../../src/main/app/tray-menu.ts';

describe('trayDownloadTracker', () => {
  const track = () => {
    const patches: Pick<TrayState, 'download'>[] = [];
    return { patches, on: trayDownloadTracker((p) => patches.push(p)) };
  };

  it('shows a download with its percentage and clears it when done', () => {
    const t = track();
    t.on('base', { state: 'downloading', received: 0, total: null });
    t.on('base', { state: 'downloading', received: 250, total: 1000 });
    t.on('base', { state: 'downloading', received: 252, total: 1000 }); // same rounded percent: no redraw
    t.on('base', { state: 'done' });
    expect(t.patches).toEqual([{ download: { name: 'base', percent: 0 } }, { download: { name: 'base', percent: 25 } }, { download: null }]);
  });

  it('a failed or cancelled download clears the line too', () => {
    const t = track();
    t.on('tiny', { state: 'downloading', received: 1, total: 10 });
    t.on('tiny', { state: 'failed', message: 'download cancelled' });
    expect(t.patches.at(-1)).toEqual({ download: null });
    // An end without a start (e.g. a late event) changes nothing.
    t.on('other', { state: 'done' });
    expect(t.patches).toHaveLength(2);
  });

  it('two downloads: the latest is shown; when it ends the other takes its place', () => {
    const t = track();
    t.on('a', { state: 'downloading', received: 10, total: 100 });
    t.on('b', { state: 'downloading', received: 30, total: 100 });
    t.on('a', { state: 'downloading', received: 20, total: 100 }); // not shown: b is
    expect(t.patches).toEqual([{ download: { name: 'a', percent: 10 } }, { download: { name: 'b', percent: 30 } }]);
    t.on('b', { state: 'done' });
    expect(t.patches.at(-1)).toEqual({ download: { name: 'a', percent: 20 } });
    t.on('a', { state: 'done' });
    expect(t.patches.at(-1)).toEqual({ download: null });
  });

  it('percent is clamped and 0 while the size is unknown', () => {
    expect(trayDownloadOf('x', { state: 'downloading', received: 500, total: 100 }).percent).toBe(100);
    expect(trayDownloadOf('x', { state: 'downloading', received: 5, total: 0 }).percent).toBe(0);
  });
});
