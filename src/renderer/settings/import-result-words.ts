import type { HistoryImportResult, ImportUnreadableFile } from '../../shared/ipc/settings-types.ts';
import type { Translate } from '../lib/i18n-context.ts';

/** One file an import left out, in words: its path and why. */
export interface LeftOutFile {
  readonly path: string;
  readonly text: string;
}

/** A headline and the files it is about. */
export interface LeftOutGroup {
  readonly headline: string;
  readonly files: readonly LeftOutFile[];
}

/** A WenZi import's result in words: the counts, the files not read, and where the unreadable lines are. */
export interface ImportResultWords {
  readonly summary: string;
  /** Null when every file was read. */
  readonly skipped: LeftOutGroup | null;
  /** Null when every line could be read. */
  readonly unreadable: LeftOutGroup | null;
}

/** "line 3" / "lines 2, 3 and 40 more" of one file. Pure. */
function linesText(t: Translate, f: ImportUnreadableFile): string {
  const list = f.lines.join(t('privacy.importListSeparator'));
  const named = t(f.lines.length === 1 && f.count === 1 ? 'privacy.importLineOne' : 'privacy.importLineMany', { lines: list });
  return f.count > f.lines.length ? t('privacy.importLineMore', { lines: named, count: f.count - f.lines.length }) : named;
}

/** The words of an import result in the UI language (`t`); technical reasons stay as the system gave them. Pure. */
export function importResultWords(t: Translate, r: NonNullable<HistoryImportResult>): ImportResultWords {
  const skipped =
    r.skipped.length === 0
      ? null
      : { headline: t('privacy.importSkipped'), files: r.skipped.map((s) => ({ path: s.path, text: t(`privacy.skip.${s.cause}`, { reason: s.reason }) })) };
  const unreadable =
    r.badLines === 0
      ? null
      : { headline: t('privacy.importUnreadable', { count: r.badLines }), files: r.unreadable.map((f) => ({ path: f.path, text: linesText(t, f) })) };
  return { summary: t('privacy.imported', { imported: r.imported, duplicates: r.duplicates }), skipped, unreadable };
}
