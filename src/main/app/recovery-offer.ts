/**
 * At start: dictations cut off by a crash or quit. Those whose record reached the user go to history
 * (`logJournaledRecords`); the newest of the rest is offered — finish, discard or later
 * (docs/dev/ARCHITECTURE.md, "One dictation, through the files", step 7).
 */
import type { MessageBoxOptions } from 'electron';
import type { DictationController } from '../dictation/controller.ts';
import type { Logger } from '../platform/logger.ts';
import { checkMacPermissions } from '../platform/permissions.ts';
import type { Notify } from './app-notices.ts';
import { format, type MainMessages } from './messages.ts';

/** What {@link offerRecovery} needs. */
export interface RecoveryOfferDeps {
  readonly session: Pick<DictationController, 'recoverable' | 'recover'>;
  /** The dialog's strings in the UI language. */
  readonly messages: () => MainMessages['recovery'];
  readonly log: Logger;
  /** Asks the user (Electron's dialog.showMessageBox). */
  readonly ask: (options: MessageBoxOptions) => Promise<{ readonly response: number }>;
}

/** Offers the newest recoverable dictation: finish it, discard it, or keep it for later. */
export async function offerRecovery(deps: RecoveryOfferDeps): Promise<void> {
  const c = deps.session;
  const sessions = c.recoverable();
  deps.log.info('recovery checked', { offered: sessions.length });
  const newest = sessions.at(-1);
  if (newest === undefined) return;
  const more = sessions.length - 1;
  const m = deps.messages();
  const what = newest.asrText ? `"${newest.asrText.slice(0, 120)}"` : format(m.audio, { seconds: newest.durationSeconds.toFixed(1) });
  const { response } = await deps.ask({
    type: 'question',
    buttons: [m.finish, m.discard, m.later],
    defaultId: 0,
    cancelId: 2,
    title: m.title,
    message: m.message,
    detail: format(more > 0 ? m.detailMore : m.detailOne, { what, when: newest.createdAt, more }),
  });
  if (response === 0) c.recover(newest.id, 'finish');
  else if (response === 1) c.recover(newest.id, 'discard');
}

/** What {@link runStartupChecks} needs. */
export interface StartupChecksDeps {
  readonly notify: Notify;
  readonly session: Pick<DictationController, 'logJournaledRecords'>;
  readonly log: Logger;
  /** The recovery offer ({@link offerRecovery} with its dependencies). */
  readonly offerRecovery: () => Promise<void>;
}

/** The last steps of start, in order: macOS permissions, journaled records to history, then the recovery offer. */
export async function runStartupChecks(deps: StartupChecksDeps): Promise<void> {
  for (const p of await checkMacPermissions()) {
    deps.notify('warning', { code: p.permission === 'microphone' ? 'permission-microphone' : 'permission-accessibility' });
  }
  // Dictations that reached the user before a crash or quit but not the disk go to history, not to the offer.
  const logged = await deps.session.logJournaledRecords().catch((err: unknown) => deps.log.warn('journaled records not logged', { error: String(err) }));
  if (typeof logged === 'number' && logged > 0) deps.log.info('journaled records logged', { count: logged });
  await deps.offerRecovery().catch((err: unknown) => deps.log.warn('recovery offer failed', { error: String(err) }));
}
