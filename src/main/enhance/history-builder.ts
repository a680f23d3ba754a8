import { recordKey, type StoredRecord } from '../../shared/history/record.ts';
import { inlineDiff } from './wenzi-diff.ts';

/**
 * The incremental per-mode history section (seed "Prompt Caching Optimization"): the lines are kept
 * per mode and only appended to, so consecutive prompts share a byte-identical prefix; the list is
 * rebuilt from the latest `max_entries` when appending would reach `refresh_threshold` entries or
 * `max_history_chars` characters, when the anchor (last record used) vanished or changed, or when
 * the settings changed. When the history has not changed since the last build (its change counter),
 * the cached lines are returned without touching the store.
 */

/** What the builder needs from the history store (HistoryStore satisfies it). */
export interface RecentHistorySource {
  /** Increases on every change of the history (append, edit, delete, rotation). */
  readonly changeCounter: number;
  /** Preview-confirmed records of one mode, final text ≤ 500 chars, the last `n`, oldest first. */
  getRecent(q: { readonly mode: string; readonly n: number }): Promise<readonly StoredRecord[]>;
}

/** The `ai_enhance.conversation_history` numbers the builder uses. */
export interface HistoryLimits {
  readonly maxEntries: number;
  readonly refreshThreshold: number;
  readonly maxHistoryChars: number;
}

/** What happened on a build, for tests and diagnostics. */
export type BuildKind = 'cached' | 'first' | 'append' | 'unchanged' | 'rebuild-threshold' | 'rebuild-anchor' | 'rebuild-settings' | 'trimmed';

/** The history lines of one mode. */
export interface HistorySection {
  readonly lines: readonly string[];
  readonly chars: number;
  readonly kind: BuildKind;
}

/** Number of modes whose lines are kept (WenZi). */
export const HISTORY_LRU_SIZE = 16;

/** One history line: the confirmed text when nothing changed, else `识别 → 确认` or the inline `[误→正]` diff, whichever is shorter. */
export function formatHistoryLine(asr: string, final: string): string {
  const clean = (s: string): string => s.trim().replace(/\r?\n/g, '⏎');
  const a = clean(asr);
  const f = clean(final);
  if (a === f || a === '') return `- ${f}`;
  const arrow = `${a} → ${f}`;
  const diff = inlineDiff(a, f);
  return `- ${diff.length < arrow.length ? diff : arrow}`;
}

interface ModeState {
  lines: string[];
  chars: number;
  anchorKey: string | null;
  anchorLine: string | null;
  counter: number;
  settings: string;
}

/** Per-mode incremental builder with an LRU of modes. */
export class HistoryBuilder {
  private readonly states = new Map<string, ModeState>();
  private readonly source: RecentHistorySource;
  /** How many times the store was asked (tests assert "no read when nothing was logged"). */
  reads = 0;

  /** A builder over a history source. */
  constructor(source: RecentHistorySource) {
    this.source = source;
  }

  /** The lines for a mode, appending or rebuilding as the seed says. */
  async build(mode: string, limits: HistoryLimits): Promise<HistorySection> {
    const settings = `${limits.maxEntries}/${limits.refreshThreshold}/${limits.maxHistoryChars}`;
    const counter = this.source.changeCounter;
    const state = this.states.get(mode);
    if (state) {
      this.states.delete(mode); // LRU: re-insert as most recent
      this.states.set(mode, state);
      if (state.counter === counter && state.settings === settings) return { lines: state.lines, chars: state.chars, kind: 'cached' };
    }
    // Enough records to find the anchor among everything that may have been appended since.
    const window = Math.max(limits.refreshThreshold, limits.maxEntries) + 1;
    this.reads++;
    const records = await this.source.getRecent({ mode, n: window });
    if (!state) return this.store(mode, this.fresh(records, limits, counter, settings, 'first'));
    if (state.settings !== settings) return this.store(mode, this.fresh(records, limits, counter, settings, 'rebuild-settings'));
    let anchorAt = -1;
    if (state.anchorKey !== null) {
      for (let i = records.length - 1; i >= 0; i--) {
        const r = records[i];
        if (r && recordKey(r) === state.anchorKey) {
          anchorAt = i;
          break;
        }
      }
      const anchor = records[anchorAt];
      if (!anchor || formatHistoryLine(anchor.asr_text, anchor.final_text) !== state.anchorLine) {
        return this.store(mode, this.fresh(records, limits, counter, settings, 'rebuild-anchor'));
      }
    }
    const added = records.slice(anchorAt + 1).map((r) => ({ r, line: formatHistoryLine(r.asr_text, r.final_text) }));
    if (added.length === 0) {
      state.counter = counter;
      return { lines: state.lines, chars: state.chars, kind: 'unchanged' };
    }
    const addedChars = added.reduce((n, a) => n + a.line.length + 1, 0);
    if (state.lines.length + added.length >= limits.refreshThreshold || state.chars + addedChars >= limits.maxHistoryChars) {
      return this.store(mode, this.fresh(records, limits, counter, settings, 'rebuild-threshold'));
    }
    const last = added[added.length - 1];
    const next: ModeState = {
      lines: [...state.lines, ...added.map((a) => a.line)],
      chars: state.chars + addedChars,
      anchorKey: last ? recordKey(last.r) : state.anchorKey,
      anchorLine: last ? last.line : state.anchorLine,
      counter,
      settings,
    };
    return this.store(mode, { state: next, kind: 'append' });
  }

  /**
   * Drops the oldest `count` lines of a mode (token budget enforcement). The shortened list becomes the
   * new base, so the following requests share its prefix again.
   */
  trimOldest(mode: string, count: number): HistorySection | null {
    const state = this.states.get(mode);
    if (!state || count <= 0) return null;
    state.lines = state.lines.slice(count);
    state.chars = state.lines.reduce((n, l) => n + l.length + 1, 0);
    if (state.lines.length === 0) {
      state.anchorLine = null;
    }
    return { lines: state.lines, chars: state.chars, kind: 'trimmed' };
  }

  /** Forgets every mode (e.g. after the user toggled history injection). */
  clear(): void {
    this.states.clear();
  }

  /** Modes currently cached, least recently used first. */
  cachedModes(): string[] {
    return [...this.states.keys()];
  }

  private fresh(records: readonly StoredRecord[], limits: HistoryLimits, counter: number, settings: string, kind: BuildKind): { state: ModeState; kind: BuildKind } {
    let base = records.slice(-limits.maxEntries).map((r) => ({ r, line: formatHistoryLine(r.asr_text, r.final_text) }));
    // A rebuilt base must itself stay under the character cap, or every request would rebuild again.
    let chars = base.reduce((n, a) => n + a.line.length + 1, 0);
    while (base.length > 1 && chars >= limits.maxHistoryChars) {
      chars -= (base[0]?.line.length ?? 0) + 1;
      base = base.slice(1);
    }
    const last = base[base.length - 1];
    return {
      state: { lines: base.map((b) => b.line), chars, anchorKey: last ? recordKey(last.r) : null, anchorLine: last ? last.line : null, counter, settings },
      kind,
    };
  }

  private store(mode: string, built: { state: ModeState; kind: BuildKind }): HistorySection {
    this.states.delete(mode);
    this.states.set(mode, built.state);
    while (this.states.size > HISTORY_LRU_SIZE) {
      const oldest = this.states.keys().next().value;
      if (oldest === undefined) break;
      this.states.delete(oldest);
    }
    return { lines: built.state.lines, chars: built.state.chars, kind: built.kind };
  }
}
