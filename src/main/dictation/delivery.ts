/**
 * The controller's output side: handing the final text to the output port, logging the finished
 * session to history (and vocabulary outcomes), and delivering a reopened earlier preview again —
 * which updates that session's history record when the user changed its text (the history service
 * sets `edited_at`).
 */
import { newRecordId, recordKey, type HistoryRecord, type NewHistoryRecord } from '../../shared/history/record.ts';
import { errorText, type ControllerContext } from './controller-context.ts';
import type { DeliveryOutcome } from '../ports/output-port.ts';
import type { SessionJournals } from './session-journals.ts';
import type { LogIntent, MachineEvent } from './session-types.ts';

/** What a delivery ends in. */
export type OutputDone = Extract<MachineEvent, { readonly type: 'output-done' }>;

/** How many logged sessions can still be updated from a reopened preview (the panel keeps 10). */
const REMEMBERED = 32;

/** What a logged session's record looks like now, by session id (newest last). */
export class LoggedRecords {
  private readonly bySession = new Map<string, { readonly key: string; readonly finalText: string; readonly modelText: string }>();

  /** Remembers session `sessionId`'s record. */
  remember(sessionId: string, key: string, finalText: string, modelText: string): void {
    this.bySession.delete(sessionId);
    this.bySession.set(sessionId, { key, finalText, modelText });
    while (this.bySession.size > REMEMBERED) {
      const oldest = this.bySession.keys().next().value;
      if (oldest === undefined) break;
      this.bySession.delete(oldest);
    }
  }

  /** The record of session `sessionId`, if it is still remembered. */
  get(sessionId: string): { readonly key: string; readonly finalText: string; readonly modelText: string } | undefined {
    return this.bySession.get(sessionId);
  }
}

/**
 * Delivers the text of session `id`; resolves to the outcome for the machine. The output port is called
 * in this turn of the event loop (the record is journaled right after it, see `journalRecord`).
 */
export async function runOutput(ctx: Pick<ControllerContext, 'ports' | 'submitKey'>, id: string, text: string, action: 'paste' | 'copy'): Promise<OutputDone> {
  // A chat's Enter (output.submit_key, or the app rule's) is a real keystroke after the paste, not a pasted newline.
  const submit = action === 'paste' ? ctx.submitKey(id) : undefined;
  let r: DeliveryOutcome;
  try {
    r = await ctx.ports.output.deliver(text, action, submit);
  } catch (err) {
    r = { ok: false, notice: { code: 'paste-failed', reason: errorText(err), app: null } };
  }
  return { type: 'output-done', id, ok: r.ok, ...(r.notice !== undefined ? { notice: r.notice } : {}) };
}

/** The history record session `sessionId` logs for `intent` (null for chain modes, which write no history). */
export function recordOf(ctx: Pick<ControllerContext, 'clock'>, intent: LogIntent): HistoryRecord | null {
  const { asr, enh } = intent;
  if (enh.historyMode === null) return null; // chain modes write no history (seed rule)
  const now = ctx.clock.now();
  return {
    // Its id and time are fixed here, so a record logged again after a crash is the same record.
    id: newRecordId(now),
    timestamp: new Date(now).toISOString(),
    // As recognized; what the text rules made of it is `text_rules` (the LLM got asr.text).
    asr_text: asr.recognized ?? asr.text,
    enhanced_text: enh.enhanced,
    final_text: intent.finalText,
    enhance_mode: enh.historyMode,
    preview_enabled: intent.previewEnabled,
    stt_model: asr.sttModel,
    llm_model: enh.model,
    user_corrected: intent.outcome !== 'cancelled' && intent.finalText !== enh.text,
    audio_duration: Math.round(asr.duration * 10) / 10,
    language: asr.language,
    source: intent.source,
    outcome: intent.outcome,
    ...(enh.usage ? { usage: enh.usage } : {}),
    ...(asr.textRules ? { text_rules: asr.textRules } : {}),
    ...(enh.status === 'fallback' || enh.status === 'guarded' ? { enhance_error: (enh.reason ?? enh.status).slice(0, 500) } : {}),
  };
}

/**
 * Journals session `sessionId`'s history record (fsynced, synchronous) before its text is handed out.
 * Best effort like every journal write: a disk that refuses it costs crash safety, not the dictation.
 */
export function journalRecord(ctx: ControllerContext, sessionId: string, intent: LogIntent): void {
  const record = recordOf(ctx, intent);
  if (record === null) return;
  ctx.journals.stage(sessionId, { record, mode: ctx.modeOf(sessionId) });
}

/**
 * Writes the history record of a finished session (the one journaled before its output, else a new
 * one) and counts vocabulary outcomes. The journal is settled only once the record is on disk, or once
 * it is known that nothing will be written (history off, a chain mode); a record the disk refused stays
 * in the journal as well as in the store's memory, so neither a quit nor a crash loses it.
 */
export async function logRecord(ctx: ControllerContext, logged: LoggedRecords, sessionId: string, intent: LogIntent, settle: 'finish' | 'keep'): Promise<void> {
  const base = ctx.journals.sessions.get(sessionId)?.record ?? recordOf(ctx, intent);
  if (base === null) {
    settleJournal(ctx.journals, sessionId, settle);
    return;
  }
  // WenZi's object shape (app_name, bundle_id, window_title?, browser_domain?), read at key-down.
  const level = ctx.ports.config().ai_enhance.input_context;
  const read = level === 'off' ? null : await ctx.inputContext(sessionId);
  // App rules may have read the title and domain for matching: the record keeps only what the level allows.
  const inputContext = read !== null && level === 'basic' ? { app_name: read.app_name, bundle_id: read.bundle_id } : read;
  const record: NewHistoryRecord = { ...base, ...(inputContext !== null ? { input_context: { ...inputContext } } : {}) };
  try {
    const result = await ctx.ports.history.log(record);
    // A pending record (the disk refused it) is kept in memory and can still be edited from the panel.
    if (result && (result.saved || result.pending) && result.record.id !== undefined) logged.remember(sessionId, result.record.id, intent.finalText, intent.enh.text);
    if (result && result.pending) {
      const h = result.health ?? { state: 'write-failed' as const, reason: 'the disk refused the record', pending: 1 };
      ctx.emit({ kind: 'notice', sessionId: null, level: 'warning', notice: { code: 'history-degraded', state: h.state, reason: h.reason, pending: h.pending } });
    } else {
      settleJournal(ctx.journals, sessionId, settle, result?.record.id);
    }
    if (intent.outcome === 'confirmed' || intent.outcome === 'copied') {
      ctx.ports.vocabulary?.recordOutcome({ asrText: intent.asr.text, enhancedText: intent.enh.enhanced, finalText: intent.finalText, asrModel: intent.asr.sttModel, llmModel: intent.enh.model });
    }
  } catch (err) {
    // Not written: the journal keeps the record, and the next start logs it (`logJournaledRecords`).
    ctx.ports.log?.('error', 'history log failed', { error: String(err) });
    ctx.emit({ kind: 'notice', sessionId: null, level: 'error', notice: { code: 'history-save-failed', reason: errorText(err) } });
  }
}

/**
 * Ends session `sessionId`'s journal (`finish`), or keeps it reopenable without its record (`keep`); its
 * kept audio is linked to history key `key` (History plays it).
 */
function settleJournal(journals: SessionJournals, sessionId: string, settle: 'finish' | 'keep', key?: string): void {
  if (settle === 'keep') journals.dropRecord(sessionId, key);
  else journals.complete(sessionId, key);
}

/**
 * Logs the records that sessions left in the journal when the app crashed or quit before they were
 * on disk, each once: a record the history already holds (written just before the crash) is not
 * written again. Returns how many were written now.
 */
export async function logJournaledRecords(ctx: Pick<ControllerContext, 'ports' | 'journals'>, exceptId: string | null): Promise<number> {
  let written = 0;
  for (const s of ctx.journals.sessions.journaledRecords(exceptId)) {
    try {
      const held = (await ctx.ports.history.has?.(recordKey(s.record), s.record.timestamp)) ?? false;
      const result = held ? null : await ctx.ports.history.log(s.record);
      if (result && result.pending) continue; // still refused: it stays journaled for the next start
      if (result && result.saved) written += 1;
      settleJournal(ctx.journals, s.id, s.status === 'active' ? 'finish' : 'keep', recordKey(s.record));
    } catch (err) {
      ctx.ports.log?.('error', 'a journaled history record could not be logged', { session: s.id, error: String(err) });
    }
  }
  return written;
}

/**
 * Pastes or copies a reopened earlier preview. When its text differs from what session `sessionId`
 * logged, that record is updated (final text, corrected flag; the store sets `edited_at`).
 */
export async function deliverAgain(ctx: ControllerContext, logged: LoggedRecords, text: string, action: 'paste' | 'copy', sessionId?: string): Promise<void> {
  ctx.ports.ui.panel(false);
  const r = await ctx.ports.output.deliver(text, action);
  if (!r.ok) ctx.emit({ kind: 'notice', sessionId: null, level: 'error', notice: r.notice ?? { code: 'paste-failed', reason: null, app: null } });
  const rec = sessionId === undefined ? undefined : logged.get(sessionId);
  const update = ctx.ports.history.update;
  if (sessionId === undefined || rec === undefined || rec.finalText === text || update === undefined) return;
  try {
    await update.call(ctx.ports.history, rec.key, { final_text: text, user_corrected: text !== rec.modelText });
    logged.remember(sessionId, rec.key, text, rec.modelText);
  } catch (err) {
    ctx.ports.log?.('error', 'history update failed', { error: String(err) });
    ctx.emit({ kind: 'notice', sessionId: null, level: 'error', notice: { code: 'history-save-failed', reason: errorText(err) } });
  }
}
