import { describe, expect, it } from 'vitest';
import { trayProblems } from '../../../../src/main/app/tray-problems.ts';
import type { TrayState } from '../../../../src/main/app/tray-menu.ts';

describe('trayProblems', () => {
  it('joins every unfixed problem on one line, in the order they appeared, and clears the line once all are fixed', () => {
    const patches: Partial<TrayState>[] = [];
    const set = trayProblems(() => ({ update: (p) => patches.push(p) }));
    set('hotkeys', 'Right Alt is taken.');
    set('speech', 'No speech model.');
    set('hotkeys', 'Right Alt is still taken.');
    expect(patches.at(-1)).toEqual({ problem: 'Right Alt is still taken. No speech model.', setupNeeded: true });
    set('hotkeys', null);
    expect(patches.at(-1)).toEqual({ problem: 'No speech model.', setupNeeded: true });
    set('speech', null);
    // With the speech model in place, the tray no longer says set-up is needed.
    expect(patches.at(-1)).toEqual({ problem: null, setupNeeded: false });
  });

  it('without a tray it only keeps the problems, for when one appears', () => {
    let tray: { update(p: Partial<TrayState>): void } | null = null;
    const seen: Partial<TrayState>[] = [];
    const set = trayProblems(() => tray);
    set('history', 'The history folder is read-only.');
    tray = { update: (p) => seen.push(p) };
    set('modes', 'The mode file is broken.');
    expect(seen).toEqual([{ problem: 'The history folder is read-only. The mode file is broken.', setupNeeded: false }]);
  });
});
