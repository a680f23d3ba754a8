/**
 * The controller's enhancement effect with the per-session, per-mode result cache: a mode this session
 * already ran answers again at once (marked cached, no second model call); otherwise the enhancer
 * streams its answer (deltas go to the panel) and a superseded request's answer is dropped.
 */
import type { DictationSnapshot } from '../../shared/ipc/dictation-types.ts';
import { inputContextLine } from '../enhance/input-context-line.ts';
import { errorText, type ControllerContext } from './controller-context.ts';
import type { PreviewCache } from './preview-cache.ts';
import type { EnhanceOutcome } from './session-types.ts';

/** Runs (or answers from the cache) the enhancement of `text` in `mode` for session `id`. */
export async function runEnhance(ctx: ControllerContext, cache: PreviewCache, id: string, text: string, mode: string): Promise<void> {
  ctx.aborts.get(id)?.abort();
  const hit = cache.get(id, text, mode);
  if (hit !== null) {
    // This session already ran this mode: show that answer again, no second model call.
    finishEnhance(ctx, id, hit.result, { thinking: hit.thinking, usage: hit.usage, elapsedMs: 0, cached: true });
    return;
  }
  const ac = new AbortController();
  ctx.aborts.set(id, ac);
  const started = ctx.clock.now();
  const inputContext = await contextLine(ctx, id);
  if (ac.signal.aborted) {
    if (ctx.aborts.get(id) === ac) ctx.aborts.delete(id);
    return;
  }
  let thinking = '';
  let result: EnhanceOutcome;
  try {
    result = await ctx.ports.enhance.enhance({
      text,
      mode,
      signal: ac.signal,
      ...(inputContext !== '' ? { inputContext } : {}),
      onDelta: (stream, delta) => {
        if (ac.signal.aborted) return;
        if (stream === 'thinking') thinking += delta;
        else if (stream === 'reset') thinking = '';
        ctx.emit({ kind: 'delta', sessionId: id, stream, text: delta });
      },
    });
  } catch (err) {
    result = { status: 'fallback', text, enhanced: null, reason: errorText(err), mode, model: '', historyMode: mode, usage: null };
  } finally {
    if (ctx.aborts.get(id) === ac) ctx.aborts.delete(id);
  }
  if (ac.signal.aborted) return; // superseded (mode switch, cancel, confirm): its answer is not wanted
  const elapsedMs = ctx.clock.now() - started;
  cache.put(id, text, mode, { result, thinking, usage: result.usage, elapsedMs });
  finishEnhance(ctx, id, result, { thinking, usage: result.usage, elapsedMs, cached: false });
}

/** Longest wait for the key-down context read (it normally finished while the user spoke). */
const CONTEXT_WAIT_MS = 500;

/** Session `id`'s input context as its prompt line ('' when off or not read in time). */
async function contextLine(ctx: ControllerContext, id: string): Promise<string> {
  const level = ctx.config().ai_enhance.input_context;
  if (level === 'off') return '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), CONTEXT_WAIT_MS)));
  try {
    return inputContextLine(await Promise.race([ctx.inputContext(id), late]), level);
  } finally {
    clearTimeout(timer);
  }
}

function finishEnhance(ctx: ControllerContext, id: string, result: EnhanceOutcome, extra: Pick<DictationSnapshot, 'thinking' | 'usage' | 'elapsedMs' | 'cached'>): void {
  ctx.patchSnapshot({ sessionId: id, text: result.text, enhancedText: result.enhanced, enhanceStatus: result.status, enhanceReason: result.reason, model: result.model, ...extra });
  ctx.emit({ kind: 'result', sessionId: id, snapshot: { ...ctx.snapshot(), mode: result.mode } });
  ctx.dispatch({ type: 'enhance-done', id, result });
}
