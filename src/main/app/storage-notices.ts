/**
 * What the user must see about their files, shown where they look (a notice when it happens, the tray's
 * problem line until fixed): the history folder not taking writes (read-only, disk full — dictations go
 * on, records wait in memory), history that could not be read (named; the rest is shown), and a chosen
 * mode whose file is broken (named with its line; the built-in proofread mode runs meanwhile), and a
 * vocabulary file that was damaged (set aside, where it is said) or cannot be written. No electron here:
 * the caller passes how to notify and how to set the tray line.
 */
import type { Notice, NoticeLevel, UnreadHistory } from '../../shared/notices/notice.ts';
import type { ModeIssue } from '../enhance/modes.ts';
import type { VocabularyDamage } from '../enhance/vocabulary-store.ts';
import { SYMLINK_ARCHIVE_REASON, type HistoryProblem } from '../history/history-problems.ts';
import type { HistoryHealth } from '../history/store/store-types.ts';

/** The sources this module puts on the tray's problem line. */
export type StorageProblemSource = 'history' | 'modes' | 'vocabulary';

/** What the watcher needs. */
export interface StorageNoticeDeps {
  readonly history: {
    readonly health: HistoryHealth | null;
    onHealth(listener: (h: HistoryHealth | null) => void): () => void;
    readonly problems: readonly HistoryProblem[];
    onProblems(listener: (p: readonly HistoryProblem[]) => void): () => void;
    readonly indexReady: Promise<void>;
  };
  /** The vocabulary store (null: none was opened). */
  readonly vocabulary?: {
    readonly damage: VocabularyDamage | null;
    onDamage(listener: (d: VocabularyDamage) => void): () => void;
  } | null;
  /** The chosen mode's problem (null when it is usable). */
  readonly modeIssue: () => ModeIssue | null;
  /** Subscribes to config changes (the chosen mode may change); returns an unsubscribe function. */
  readonly onConfigChange: (listener: (e: { readonly keyPath: string }) => void) => () => void;
  readonly notify: (level: NoticeLevel, notice: Notice) => void;
  readonly setProblem: (source: StorageProblemSource, text: string | null) => void;
  readonly words: (notice: Notice) => string;
}

/** The notice of a degraded history. */
export function healthNotice(h: HistoryHealth): Notice {
  return { code: 'history-degraded', state: h.state, reason: h.reason, pending: h.pending };
}

/** One problem as the notice names it: its kind and facts, no words (notice-text.ts words each kind). Pure. */
export function unreadHistoryOf(p: HistoryProblem): UnreadHistory {
  switch (p.kind) {
    case 'unreadable':
      return { kind: 'unreadable', path: p.path, reason: p.reason };
    case 'oversized':
      return { kind: 'oversized', path: p.path, line: p.line, bytes: p.bytes };
    case 'invalid-utf8':
      return { kind: 'invalid-utf8', path: p.path, lines: p.lines };
    case 'skipped':
      return { kind: 'skipped', path: p.path, cause: p.reason === SYMLINK_ARCHIVE_REASON ? 'symbolic-link' : 'not-an-archive-name' };
    default: {
      const never: never = p;
      throw new Error(`unknown history problem ${JSON.stringify(never)}`);
    }
  }
}

/** The notice of unreadable history (all problems in one, each with what is wrong with it). */
export function problemsNotice(problems: readonly HistoryProblem[]): Notice {
  return { code: 'history-unreadable', problems: problems.map(unreadHistoryOf) };
}

/** The notice of a damaged or read-only vocabulary file. */
export function vocabularyNotice(d: VocabularyDamage): Notice {
  return { code: 'vocabulary-degraded', state: d.state, copy: d.damagedCopy, salvaged: d.salvaged, reason: d.reason };
}

/** The notice of an unusable chosen mode. */
export function modeNotice(issue: ModeIssue): Notice {
  return { code: 'mode-invalid', file: issue.file, line: issue.line, reason: issue.message, fallback: 'proofread' };
}

/** Starts watching; reports what is wrong now. Returns the function that stops it. */
export function watchStorage(deps: StorageNoticeDeps): () => void {
  const stops: (() => void)[] = [];
  let degraded = false;
  const onHealth = (h: HistoryHealth | null): void => {
    if (h === null) {
      degraded = false;
      deps.setProblem('history', null);
      return;
    }
    const notice = healthNotice(h);
    deps.setProblem('history', deps.words(notice));
    // A notice when it starts; the tray line keeps the count of waiting records up to date.
    if (!degraded) deps.notify('warning', notice);
    degraded = true;
  };
  onHealth(deps.history.health);
  stops.push(deps.history.onHealth(onHealth));

  let reported = 0;
  const onProblems = (problems: readonly HistoryProblem[]): void => {
    if (problems.length <= reported) return;
    reported = problems.length;
    deps.notify('warning', problemsNotice(problems));
  };
  stops.push(deps.history.onProblems(onProblems));
  void deps.history.indexReady.then(() => onProblems(deps.history.problems), () => undefined);

  // Said when found (at start or mid-session) and kept on the tray line for the session: it names where the damaged copy is.
  const onVocabulary = (d: VocabularyDamage): void => {
    const notice = vocabularyNotice(d);
    deps.setProblem('vocabulary', deps.words(notice));
    deps.notify('warning', notice);
  };
  const vocabulary = deps.vocabulary ?? null;
  if (vocabulary !== null) {
    if (vocabulary.damage !== null) onVocabulary(vocabulary.damage);
    stops.push(vocabulary.onDamage(onVocabulary));
  }

  let lastMode: string | null = null;
  const checkMode = (): void => {
    const issue = deps.modeIssue();
    const key = issue === null ? null : `${issue.file}\u0000${issue.line}\u0000${issue.message}`;
    if (key === lastMode) return;
    lastMode = key;
    if (issue === null) {
      deps.setProblem('modes', null);
      return;
    }
    const notice = modeNotice(issue);
    deps.setProblem('modes', deps.words(notice));
    deps.notify('warning', notice);
  };
  checkMode();
  stops.push(
    deps.onConfigChange(({ keyPath }) => {
      if (keyPath === '' || keyPath === 'ai_enhance' || keyPath.startsWith('ai_enhance.mode')) checkMode();
    }),
  );
  return () => {
    for (const s of stops) s();
  };
}
