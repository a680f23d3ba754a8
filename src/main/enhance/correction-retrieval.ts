import type { HistoryQuery, HistoryPage } from '../../shared/history/query.ts';
import { formatHistoryLine } from './history-builder.ts';
import { correctionPairs } from './text-diff.ts';

/**
 * Retrieval of *older* confirmed corrections (beyond the recent history window): every record the user
 * corrected is reduced to its wrong fragments (`平平` in `[平平→萍萍]`), and a dictation whose ASR text
 * contains one of them gets those records as extra lines in the dynamic tail of the prompt, where they
 * cannot disturb the cached prefix. The fragment table is rebuilt only when the history changed.
 */

/** A corrected, confirmed record as the retrieval needs it. */
export interface CorrectionRecord {
  readonly key: string;
  readonly asr_text: string;
  readonly final_text: string;
  readonly enhance_mode: string;
}

/** Where corrections come from (the history index satisfies it through `historyCorrectionSource`). */
export interface CorrectionSource {
  /** Increases whenever the history changes (so the table is only rebuilt then). */
  readonly changeCounter: number;
  /** Preview-confirmed records the user corrected, newest first, archives included, at most `limit`. */
  listCorrected(limit: number): Promise<readonly CorrectionRecord[]>;
}

interface Fragment {
  readonly wrong: string;
  readonly mode: string;
  readonly line: string;
}

/** Corrected records scanned at most (newest first). */
export const MAX_SCANNED_CORRECTIONS = 5000;
/** Lines retrieved per request at most. */
export const MAX_RETRIEVED = 3;

/** Whether a fragment is specific enough to look for: two CJK characters or three Latin ones. */
function usefulFragment(s: string): boolean {
  const cjk = (s.match(/[\u3400-\u9fff]/gu) ?? []).length;
  return cjk >= 2 || (cjk === 0 && s.replace(/[^A-Za-z0-9]/g, '').length >= 3);
}

/** In-memory fragment table over a CorrectionSource. */
export class CorrectionRetriever {
  private readonly source: CorrectionSource;
  private fragments: Fragment[] = [];
  private loadedAt = -1;
  private loading: Promise<void> | null = null;

  /** A retriever over a source. */
  constructor(source: CorrectionSource) {
    this.source = source;
  }

  /** Rebuilds the table when the history changed; failures leave the old table in place. */
  async refresh(): Promise<void> {
    const counter = this.source.changeCounter;
    if (counter === this.loadedAt) return;
    this.loading ??= (async () => {
      try {
        const records = await this.source.listCorrected(MAX_SCANNED_CORRECTIONS);
        const next: Fragment[] = [];
        for (const r of records) {
          const line = formatHistoryLine(r.asr_text, r.final_text);
          for (const p of correctionPairs(r.asr_text, r.final_text)) if (usefulFragment(p.wrong)) next.push({ wrong: p.wrong, mode: r.enhance_mode, line });
        }
        this.fragments = next;
        this.loadedAt = counter;
      } finally {
        this.loading = null;
      }
    })();
    await this.loading;
  }

  /** Up to `max` lines (newest correction first) whose wrong fragment occurs in the ASR text, skipping lines already shown. */
  retrieve(asrText: string, mode: string, exclude: ReadonlySet<string>, max = MAX_RETRIEVED): string[] {
    const out: string[] = [];
    const seen = new Set<string>();
    for (const f of this.fragments) {
      if (out.length >= max) break;
      if (f.mode !== mode || seen.has(f.line) || exclude.has(f.line) || !asrText.includes(f.wrong)) continue;
      seen.add(f.line);
      out.push(f.line);
    }
    return out;
  }
}

/** What `historyCorrectionSource` needs from the history service. */
export interface QueryableHistory {
  readonly store: { readonly changeCounter: number };
  query(q: HistoryQuery): Promise<HistoryPage>;
}

/** Adapts the history service (index query: corrected only, archives included, newest first) to a CorrectionSource. */
export function historyCorrectionSource(history: QueryableHistory): CorrectionSource {
  return {
    get changeCounter() {
      return history.store.changeCounter;
    },
    async listCorrected(limit) {
      const out: CorrectionRecord[] = [];
      let cursor: string | undefined;
      while (out.length < limit) {
        const page = await history.query({ corrected: true, includeArchived: true, pageSize: 500, facets: false, ...(cursor !== undefined ? { cursor } : {}) });
        for (const r of page.rows) {
          if (r.preview_enabled && r.outcome !== 'cancelled' && r.outcome !== 'failed' && r.final_text.length <= 500) out.push({ key: r.key, asr_text: r.asr_text, final_text: r.final_text, enhance_mode: r.enhance_mode });
        }
        if (page.nextCursor === null || page.rows.length === 0) break;
        cursor = page.nextCursor;
      }
      return out.slice(0, limit);
    },
  };
}
