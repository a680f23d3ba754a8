/**
 * History that could not be read: a file (an archive name that is a directory, no permission) or a
 * line too long to read. Reported to the user (a notice in the app, stderr and a non-zero exit in the
 * CLI); everything else stays visible. Oversized lines are set aside in the quarantine file.
 */
export type HistoryProblem =
  | { readonly kind: 'unreadable'; readonly file: string; readonly path: string; readonly reason: string }
  | { readonly kind: 'oversized'; readonly file: string; readonly path: string; readonly line: number; readonly bytes: number };

/** One problem as a line of text (CLI, logs). */
export function describeProblem(p: HistoryProblem): string {
  switch (p.kind) {
    case 'unreadable':
      return `${p.path} could not be read (${p.reason}); its records are not shown`;
    case 'oversized':
      return `${p.path} line ${p.line} is ${p.bytes} bytes, too long to read; it is set aside in conversation_history.corrupt.jsonl`;
    default: {
      const never: never = p;
      return String(never);
    }
  }
}

/** The problems found so far (each reported once, however often it is found again), with listeners. */
export class ProblemLog {
  private list: HistoryProblem[] = [];
  private readonly listeners = new Set<(p: readonly HistoryProblem[]) => void>();
  private readonly warn: (m: string) => void;

  /** Problems are warned through `warn` when first found. */
  constructor(warn: (m: string) => void) {
    this.warn = warn;
  }

  /** Everything found so far. */
  get all(): readonly HistoryProblem[] {
    return this.list;
  }

  /** Subscribes to newly found problems (called with all of them); returns an unsubscribe function. */
  subscribe(listener: (p: readonly HistoryProblem[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adds what a check or rebuild found; only new problems are warned and announced. */
  report(found: readonly HistoryProblem[]): void {
    const key = (p: HistoryProblem): string => `${p.kind}\u0000${p.path}\u0000${p.kind === 'oversized' ? p.line : ''}`;
    const known = new Set(this.list.map(key));
    const fresh = found.filter((p) => !known.has(key(p)));
    if (fresh.length === 0) return;
    this.list = [...this.list, ...fresh];
    for (const p of fresh) this.warn(`history: ${describeProblem(p)}`);
    for (const l of this.listeners) {
      try {
        l(this.list);
      } catch (err) {
        this.warn(`history: problem listener failed: ${(err as Error).message}`);
      }
    }
  }
}
