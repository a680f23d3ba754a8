/** What the enhancement step hands back to the dictation: the text to deliver and how it came about. */
import type { EnhanceStatusWire } from '../../shared/ipc/dictation-types.ts';
import type { ProviderRefusal } from '../../shared/notices/notice.ts';

/** What enhancement produced (the enhancer's result, reduced to what a record and the panel need). */
export interface EnhanceOutcome {
  readonly status: EnhanceStatusWire;
  /** The text to deliver (the raw ASR text unless status is `enhanced`). */
  readonly text: string;
  readonly enhanced: string | null;
  readonly reason: string | null;
  /** The provider refused the request: what it refused, for the notice to say in the UI language. */
  readonly refusal?: ProviderRefusal | null;
  readonly mode: string;
  readonly model: string;
  /** Mode the record is logged under; null for chains (they log nothing). */
  readonly historyMode: string | null;
  readonly usage: { readonly prompt_tokens: number; readonly completion_tokens: number; readonly cached_tokens: number } | null;
}
