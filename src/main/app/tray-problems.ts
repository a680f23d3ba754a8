/** The tray's problem line: every unfixed problem, by source, joined on one line until it is fixed. */
import type { StorageProblemSource } from './storage-notices.ts';
import type { TrayState } from './tray-menu.ts';

/** Where a problem the tray shows comes from (hotkeys, speech model, history folder, mode file, vocabulary). */
export type TrayProblemSource = 'hotkeys' | 'speech' | StorageProblemSource;

/** Sets (text) or clears (null) the problem of one source. */
export type SetTrayProblem = (source: TrayProblemSource, text: string | null) => void;

/** Keeps the problems by source and writes their joined text to the tray (null when there is no tray). */
export function trayProblems(tray: () => { update(patch: Partial<TrayState>): void } | null): SetTrayProblem {
  const problems = new Map<TrayProblemSource, string>();
  return (source, text) => {
    if (text === null) problems.delete(source);
    else problems.set(source, text);
    // A missing speech engine is the first-start state: the status line says set-up is needed, not "Ready".
    tray()?.update({ problem: problems.size === 0 ? null : [...problems.values()].join(' '), setupNeeded: problems.has('speech') });
  };
}
