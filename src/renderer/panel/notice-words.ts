/**
 * A notice as the panel shows it: a headline fully in the UI language (the technical reason taken out
 * and mode ids replaced by their labels), the reason's plain-language cause when it is recognised, and
 * the original reason as a detail. Pure, unit-tested.
 */
import type { Notice } from '../../shared/notices/notice.ts';
import { noticeText } from '../../shared/notices/notice-text.ts';
import { failureCauseText } from '../lib/failure-text.ts';
import type { UiLanguage } from '../lib/i18n.ts';

/** The words of one notice. */
export interface NoticeWords {
  readonly headline: string;
  /** What the technical reason means, in the UI language; null when not recognised or absent. */
  readonly cause: string | null;
  /** The technical reason as the system gave it (shown on request); null when there is none. */
  readonly detail: string | null;
}

/** `notice` in words of `lang`; `labelOf` names modes. */
export function noticeWords(lang: UiLanguage, notice: Notice, labelOf: (mode: string) => string): NoticeWords {
  const raw = 'reason' in notice ? notice.reason : null;
  const reason = typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : null;
  let plain: Notice = notice;
  // Texts that put the reason in brackets lose it from the headline (an empty reason adds nothing).
  if (reason !== null && STRIPPED.has(notice.code)) plain = { ...notice, reason: '' } as Notice;
  if (plain.code === 'mode-changed' || plain.code === 'mode-by-rule') plain = { ...plain, mode: labelOf(plain.mode) };
  if (plain.code === 'mode-invalid') plain = { ...plain, fallback: labelOf(plain.fallback) };
  // A provider's refusal is already said in words (notice-text.ts); its own message stays inside it.
  const refused = notice.code === 'llm-fallback' && notice.refusal;
  return {
    headline: noticeText(lang, plain),
    cause: refused || !STRIPPED.has(notice.code) ? null : failureCauseText(reason, lang),
    detail: STRIPPED.has(notice.code) ? reason : null,
  };
}

/** Codes whose text adds the reason in brackets (the others weave it into the sentence, which keeps it). */
const STRIPPED: ReadonlySet<Notice['code']> = new Set<Notice['code']>([
  'silence-discarded', 'asr-failed', 'llm-fallback', 'llm-guarded', 'paste-failed', 'copy-failed', 'step-failed', 'history-save-failed',
  'history-degraded', 'history-unreadable', 'vocabulary-degraded', 'microphone-error', 'copy-selection-failed', 'mode-switch-failed', 'setting-save-failed',
  'launch-at-login-failed', 'hook-unavailable', 'toggle-failed',
]);
