import fs from 'node:fs';
import path from 'node:path';

/** Options of {@link HistoryWatcher}. */
export interface HistoryWatchOptions {
  readonly dataDir: string;
  readonly archivesDir: string;
  /** Called (debounced) when a history file may have changed; it compares size, mtime and tail itself. */
  readonly onChange: () => void;
  /** Quiet time after the last file event before `onChange` (default 100 ms). */
  readonly debounceMs?: number;
  /** Poll interval when fs.watch is unavailable or failed (default 500 ms, so a change is noticed within a second). */
  readonly pollMs?: number;
  /** Poll interval while fs.watch works, in case it misses events (network folders; default 5 s). */
  readonly backstopMs?: number;
}

/** Names in the data folder whose changes matter: the JSONL files and the archives folder (not index.db and its WAL). */
function relevant(name: string | null, archivesName: string): boolean {
  return name === null || name.endsWith('.jsonl') || name === archivesName;
}

/**
 * Notices changes other programs make to the history files: fs.watch on the data folder and the
 * archives folder (folders, not files: a rotation or another tool replaces the active file by rename),
 * with a polling fallback. It only says "look again"; the caller's stat + tail comparison decides what
 * changed, so the app's own writes cost one stat per file and never cause a re-scan loop.
 */
export class HistoryWatcher {
  private readonly opts: HistoryWatchOptions;
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private watchFailed = false;
  private timer: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(opts: HistoryWatchOptions) {
    this.opts = opts;
  }

  /** Starts watching (and polling); idempotent. */
  start(): void {
    this.stopped = false;
    this.watchDir(this.opts.dataDir);
    this.watchDir(this.opts.archivesDir);
    this.schedulePoll();
  }

  /** Whether fs.watch is in use (false: polling only). */
  get watching(): boolean {
    return !this.watchFailed && this.watchers.size > 0;
  }

  /** Stops watching and polling; a pending debounced call is dropped. */
  stop(): void {
    this.stopped = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    if (this.timer) clearTimeout(this.timer);
    if (this.poll) clearInterval(this.poll);
    this.timer = null;
    this.poll = null;
  }

  /** Schedules `onChange` after the debounce (several events coalesce into one call). */
  trigger(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      // The archives folder may have appeared (first rotation, an import, another tool).
      if (!this.watchers.has(this.opts.archivesDir)) this.watchDir(this.opts.archivesDir);
      this.opts.onChange();
    }, this.opts.debounceMs ?? 100);
    this.timer.unref();
  }

  private watchDir(dir: string): void {
    if (this.watchFailed || this.watchers.has(dir)) return;
    let w: fs.FSWatcher;
    try {
      w = fs.watch(dir, { persistent: false }, (_event, name) => {
        if (dir === this.opts.archivesDir || relevant(typeof name === 'string' ? name : null, path.basename(this.opts.archivesDir))) this.trigger();
      });
    } catch (err) {
      // A folder that does not exist yet is watched once it appears; anything else means no fs.watch here.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.fallBack();
      return;
    }
    w.on('error', () => {
      w.close();
      this.watchers.delete(dir);
      // The archives folder deleted, or watching broke: poll (and try again on the next change).
      if (dir === this.opts.dataDir) this.fallBack();
      this.trigger();
    });
    this.watchers.set(dir, w);
  }

  private fallBack(): void {
    if (this.watchFailed) return;
    this.watchFailed = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.schedulePoll();
  }

  private schedulePoll(): void {
    if (this.stopped) return;
    if (this.poll) clearInterval(this.poll);
    const ms = this.watchFailed ? (this.opts.pollMs ?? 500) : (this.opts.backstopMs ?? 5000);
    this.poll = setInterval(() => this.opts.onChange(), ms);
    this.poll.unref();
  }
}
