/**
 * A record the user corrected, as the enhancer's correction table reads it: read from the history index
 * (src/main/history/index/index-corrected.ts) by the correction retriever (src/main/enhance/correction-retrieval.ts).
 * Kept here so enhance need not import history, its peer (docs/dev/ARCHITECTURE.md, "Dependency direction").
 */
export interface CorrectedRow {
  /** Index rowid (time order): the cursor for the next page. */
  readonly rid: number;
  readonly key: string;
  /** 'active' | 'YYYY-MM' | 'unknown' */
  readonly file: string;
  readonly timestamp: string;
  readonly asr_text: string;
  readonly final_text: string;
  readonly enhance_mode: string;
  readonly preview_enabled: boolean;
  readonly outcome: string | null;
}
