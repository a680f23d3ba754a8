import type { HistoryIndex } from './index/history-index.ts';
import { applyChanges, detectChanges, type FollowResult } from './index/index-follow.ts';
import { HistoryWatcher } from './history-watch.ts';

/** What the follower needs from the history service. */
export interface FollowHost {
  readonly dataDir: string;
  readonly archivesDir: string;
  /** The index when it is in use and in step with the app's own writes; null while missing, stale or rebuilding. */
  usableIndex(): HistoryIndex | null;
  /** Runs `fn` in the store's write queue with no rotation running (the app's writes wait meanwhile). */
  whenIdle<T>(fn: () => Promise<T>): Promise<T>;
  /** The index took in another program's changes to these files. */
  changed(result: FollowResult): void;
  /** Following failed (the index could not be written): the caller marks it stale. */
  failed(err: unknown): void;
}

/** Timing options (tests shorten them). */
export interface FollowTiming {
  readonly debounceMs?: number;
  readonly pollMs?: number;
  readonly backstopMs?: number;
}

/**
 * Keeps the index in step with other programs' edits of the history files while the app runs: a
 * watcher says "look again", and a look (inside the store's queue, so never over the app's own write)
 * compares each file with the index's FileState and reads only what changed (index-follow.ts).
 */
export class HistoryFollower {
  private readonly host: FollowHost;
  private readonly watcher: HistoryWatcher;
  private running: Promise<void> | null = null;
  private again = false;
  private lookups = 0;

  constructor(host: FollowHost, timing: FollowTiming = {}) {
    this.host = host;
    this.watcher = new HistoryWatcher({ dataDir: host.dataDir, archivesDir: host.archivesDir, onChange: () => this.schedule(), ...timing });
  }

  /** Starts watching the data folder. */
  start(): void {
    this.watcher.start();
  }

  /** Stops watching; a look in progress finishes. */
  async stop(): Promise<void> {
    this.watcher.stop();
    await this.running;
  }

  /** Looks (calls while one runs coalesce into one more look after it). */
  schedule(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.host.whenIdle(() => this.syncLocked()).catch((err: unknown) => this.host.failed(err));
      } while (this.again);
    })().finally(() => {
      this.running = null;
    });
  }

  /** Looks now and waits for it (tests, the CLI). */
  async syncNow(): Promise<FollowResult | null> {
    await this.running;
    return this.host.whenIdle(() => this.syncLocked());
  }

  /** Looks inside the store's queue (before a rewrite, so an edit never folds unseen lines into a file). */
  async syncLocked(): Promise<FollowResult | null> {
    const index = this.host.usableIndex();
    if (!index) return null;
    this.lookups++;
    const changes = detectChanges(index, this.host.dataDir);
    if (changes.length === 0) return null;
    const result = await applyChanges(index, changes);
    this.host.changed(result);
    return result;
  }

  /** How many looks compared the files with the index (diagnostics, tests). */
  get lookupCount(): number {
    return this.lookups;
  }

  /** Whether fs.watch is in use (false: polling). */
  get watching(): boolean {
    return this.watcher.watching;
  }
}
