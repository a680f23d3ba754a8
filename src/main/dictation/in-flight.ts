/**
 * The ASR and LLM work in flight, by session id: the machine's `abort` effect aborts it, and a new
 * step of a session aborts that session's earlier work. A step's controller is forgotten when the step
 * ends, before the controller dispatches the event it produced, so a next step of the same session
 * starts with nothing of it left.
 */

/** In-flight work by session id. */
export class InFlight {
  private readonly byId = new Map<string, AbortController>();

  /** Runs `work` for session `id` with a fresh signal, aborting the session's earlier work first. */
  async run<T>(id: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.abort(id);
    const ac = new AbortController();
    this.byId.set(id, ac);
    try {
      return await work(ac.signal);
    } finally {
      if (this.byId.get(id) === ac) this.byId.delete(id);
    }
  }

  /** Aborts session `id`'s work in flight (its result will be ignored anyway). */
  abort(id: string): void {
    this.byId.get(id)?.abort();
    this.byId.delete(id);
  }
}
