/**
 * The controller's enhancement effect with the per-session, per-mode result cache: a mode this session
 * already ran answers again at once (marked cached, no second model call); otherwise the enhancer
 * streams its answer (deltas go to the panel) and a superseded request's answer is dropped. Resolves to
 * the machine event it produced (null when superseded); the controller dispatches it.
 */
import type { DictationSnapshot } from '../../shared/ipc/dictation-types.ts';
import { inputContextLine } from '../enhance/input-context-line.ts';
import { errorText, type ControllerContext } from './controller-context.ts';
import type { PreviewCache } from './preview-cache.ts';
import type { EnhanceOutcome, MachineEvent } from './session-types.ts';
import { withTimeout } from '../../shared/with-timeout.ts';

/** What an enhancement ends in. */
export type EnhanceDone = Extract<MachineEvent, { readonly type: 'enhance-done' }>;

/**
 * The answer session `id` already got for `text` in `mode`, shown again at once (no second model call);
 * null when this session has not run this mode. Synchronous, so a mode switch back ends in the preview
 * within the switch.
 */
export function cachedEnhance(ctx: ControllerContext, cache: PreviewCache, id: string, text: string, mode: string): EnhanceDone | null {
  const hit = cache.get(id, text, mode);
  return hit === null ? null : finishEnhance(ctx, id, hit.result, { thinking: hit.thinking, usage: hit.usage, elapsedMs: 0, cached: true });
}

/**
 * Runs the enhancement of `text` in `mode` for session `id` (after {@link cachedEnhance} found none);
 * `signal`: the request was superseded (mode switch, cancel, confirm), its answer is not wanted (null).
 */
export async function runEnhance(ctx: ControllerContext, cache: PreviewCache, id: string, text: string, mode: string, signal: AbortSignal): Promise<EnhanceDone | null> {
  const started = ctx.clock.now();
  const inputContext = await contextLine(ctx, id);
  if (signal.aborted) return null;
  let thinking = '';
  let result: EnhanceOutcome;
  try {
    result = await ctx.ports.enhance.enhance({
      text,
      mode,
      signal,
      ...(inputContext !== '' ? { inputContext } : {}),
      onDelta: (stream, delta) => {
        if (signal.aborted) return;
        if (stream === 'thinking') thinking += delta;
        else if (stream === 'reset') thinking = '';
        ctx.emit({ kind: 'delta', sessionId: id, stream, text: delta });
      },
    });
  } catch (err) {
    result = { status: 'fallback', text, enhanced: null, reason: errorText(err), mode, model: '', historyMode: mode, usage: null };
  }
  if (signal.aborted) return null; // superseded (mode switch, cancel, confirm): its answer is not wanted
  const elapsedMs = ctx.clock.now() - started;
  cache.put(id, text, mode, { result, thinking, usage: result.usage, elapsedMs });
  return finishEnhance(ctx, id, result, { thinking, usage: result.usage, elapsedMs, cached: false });
}

/** Longest wait for the key-down context read (it normally finished while the user spoke). */
const CONTEXT_WAIT_MS = 500;

/** Session `id`'s input context as its prompt line ('' when off or not read in time). */
async function contextLine(ctx: ControllerContext, id: string): Promise<string> {
  const level = ctx.ports.config().ai_enhance.input_context;
  if (level === 'off') return '';
  return inputContextLine(await withTimeout(ctx.inputContext(id), CONTEXT_WAIT_MS, null), level);
}

/** The panel shows the result; the machine is told. */
function finishEnhance(ctx: ControllerContext, id: string, result: EnhanceOutcome, extra: Pick<DictationSnapshot, 'thinking' | 'usage' | 'elapsedMs' | 'cached'>): EnhanceDone {
  const shown = ctx.show({ sessionId: id, text: result.text, enhancedText: result.enhanced, enhanceStatus: result.status, enhanceReason: result.reason, model: result.model, ...extra });
  ctx.emit({ kind: 'result', sessionId: id, snapshot: { ...shown, mode: result.mode } });
  return { type: 'enhance-done', id, result };
}
