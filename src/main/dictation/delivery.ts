/**
 * The controller's output side: handing the final text to the output port, logging the finished
 * session to history (and vocabulary outcomes), and delivering a reopened earlier preview again —
 * which updates that session's history record when the user changed its text (the history service
 * sets `edited_at`).
 */
import type { NewHistoryRecord } from '../../shared/history/record.ts';
import { errorText, type ControllerContext } from './controller-context.ts';
import type { DeliveryOutcome } from '../ports/output-port.ts';
import type { LogIntent } from './session-types.ts';

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

/** Delivers the text of session `id` and reports the outcome to the machine. */
export async function runOutput(ctx: ControllerContext, id: string, text: string, action: 'paste' | 'copy'): Promise<void> {
  const suffix = ctx.config().output.append_newline ? '\n' : '';
  let r: DeliveryOutcome;
  try {
    r = await ctx.ports.output.deliver(text + suffix, action);
  } catch (err) {
    r = { ok: false, notice: { code: 'paste-failed', reason: errorText(err), app: null } };
  }
  ctx.dispatch({ type: 'output-done', id, ok: r.ok, ...(r.notice !== undefined ? { notice: r.notice } : {}) });
}

/** Writes the history record of a finished session (chains log nothing) and counts vocabulary outcomes. */
export async function logRecord(ctx: ControllerContext, logged: LoggedRecords, sessionId: string, intent: LogIntent): Promise<void> {
  const { asr, enh } = intent;
  if (enh.historyMode === null) return; // chain modes write no history (seed rule)
  // WenZi's object shape (app_name, bundle_id, window_title?, browser_domain?), read at key-down.
  const inputContext = ctx.config().ai_enhance.input_context === 'off' ? null : await ctx.inputContext(sessionId);
  const record: NewHistoryRecord = {
    asr_text: asr.text,
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
    ...(inputContext !== null ? { input_context: { ...inputContext } } : {}),
    ...(enh.status === 'fallback' || enh.status === 'guarded' ? { enhance_error: (enh.reason ?? enh.status).slice(0, 500) } : {}),
  };
  try {
    const result = await ctx.ports.history.log(record);
    // A pending record (the disk refused it) is kept in memory and can still be edited from the panel.
    if (result && (result.saved || result.pending) && result.record.id !== undefined) logged.remember(sessionId, result.record.id, intent.finalText, enh.text);
    if (result && result.pending) {
      const h = result.health ?? { state: 'write-failed' as const, reason: 'the disk refused the record', pending: 1 };
      ctx.emit({ kind: 'notice', sessionId: null, level: 'warning', notice: { code: 'history-degraded', state: h.state, reason: h.reason, pending: h.pending } });
    }
    if (intent.outcome === 'confirmed' || intent.outcome === 'copied') {
      ctx.ports.vocabulary?.recordOutcome({ asrText: asr.text, enhancedText: enh.enhanced, finalText: intent.finalText, asrModel: asr.sttModel, llmModel: enh.model });
    }
  } catch (err) {
    ctx.ports.log?.('error', 'history log failed', { error: String(err) });
    ctx.emit({ kind: 'notice', sessionId: null, level: 'error', notice: { code: 'history-save-failed', reason: errorText(err) } });
  }
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
