/** Where a dictation notice goes: the log, every trusted window, and the recording indicator. */
import type { Notice, NoticeLevel } from '../../shared/notices/notice.ts';
import type { Broadcast } from '../ipc/register.ts';
import type { Logger } from '../platform/logger.ts';

/** Says a notice: logged, sent to the windows (they put it into words) and shown by the indicator. */
export type Notify = (level: NoticeLevel, notice: Notice) => void;

/** What {@link createNotifier} sends to. */
export interface NotifierDeps {
  readonly log: Logger;
  /** Sends an event to every trusted window (null until IPC is up). */
  readonly broadcast: () => Broadcast | null;
  readonly indicator: { notice(notice: Notice): void };
}

/** The app's one notice sink. */
export function createNotifier(deps: NotifierDeps): Notify {
  return (level, notice) => {
    deps.log.log(level === 'error' ? 'error' : level === 'warning' ? 'warn' : 'info', 'notice', { notice });
    deps.broadcast()?.('app:notice', { level, notice });
    deps.indicator.notice(notice);
  };
}
