import { useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { LearnProposal } from '../../shared/ipc/learning-contract.ts';
import { errorText } from '../lib/errors.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** How long the text must rest before the edit is compared (typing a name should not ask at every key). */
export const PROPOSE_DELAY_MS = 400;

const same = (a: LearnProposal, b: LearnProposal): boolean => a.wrong === b.wrong && a.right === b.right;

/**
 * The proposal learned from the user's edit, inline: "把 平平 → 萍萍 加入词库？" with Add, Always replace
 * (the pair and a replacement rule) and Not now. Main compares `before` (what was shown) with `after` (the
 * edited text) once the text rests; a dismissed pair is not offered again for this text. Renders nothing
 * without a proposal or a status.
 */
export function ProposalBar({ bridge, before, after, active }: { readonly bridge: TingxieBridge; readonly before: string; readonly after: string; readonly active: boolean }) {
  const { t } = useI18n();
  // Each piece of state remembers the text it belongs to, so a new edit or a new dictation starts clean without resetting it in an effect.
  const [found, setFound] = useState<{ readonly key: string; readonly list: readonly LearnProposal[] }>({ key: '', list: [] });
  const [dismissedFor, setDismissedFor] = useState<{ readonly before: string; readonly list: readonly LearnProposal[] }>({ before: '', list: [] });
  const [statusFor, setStatusFor] = useState<{ readonly before: string; readonly ok: boolean; readonly text: string } | null>(null);
  const key = `${before}\u0000${after}`;

  useEffect(() => {
    if (!active || before === after || before === '') return;
    let live = true;
    const timer = setTimeout(() => {
      bridge.learning.propose({ before, after }).then(
        (list) => live && setFound({ key: `${before}\u0000${after}`, list }),
        () => undefined, // learning is a nicety: a failed comparison just proposes nothing
      );
    }, PROPOSE_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [bridge, before, after, active]);

  const proposals = found.key === key ? found.list : [];
  const dismissed = dismissedFor.before === before ? dismissedFor.list : [];
  const status = statusFor !== null && statusFor.before === before ? statusFor : null;
  const setStatus = (s: { readonly ok: boolean; readonly text: string } | null): void => setStatusFor(s === null ? null : { before, ...s });
  const dismiss = (p: LearnProposal): void => setDismissedFor({ before, list: [...dismissed, p] });
  const shown = active ? proposals.find((p) => !dismissed.some((d) => same(d, p))) : undefined;
  const accept = (p: LearnProposal, always: boolean): void => {
    bridge.learning.accept({ wrong: p.wrong, right: p.right, kind: p.kind, always }).then(
      (r) => {
        const key = !always ? 'learning.added' : r.rule === 'added' ? 'learning.addedAlways' : 'learning.addedNoRule';
        setStatus({ ok: true, text: t(key, { wrong: p.wrong, right: p.right }) });
        dismiss(p);
      },
      (err: unknown) => setStatus({ ok: false, text: t('learning.failed', { message: errorText(err) }) }),
    );
  };

  if (shown === undefined && status === null) return null;
  return (
    <section className="learn-proposal" aria-label={t('learning.region')} data-testid="panel-proposal">
      {shown !== undefined ? (
        <>
          <span className="learn-proposal-text" data-testid="panel-proposal-text" title={t('learning.propose', { wrong: shown.wrong, right: shown.right })}>
            {t('learning.propose', { wrong: shown.wrong, right: shown.right })}
          </span>
          <button type="button" className="link-button" data-testid="panel-proposal-add" onClick={() => accept(shown, false)}>
            {t('learning.add')}
          </button>
          <button type="button" className="link-button" data-testid="panel-proposal-always" title={t('learning.always.help', { wrong: shown.wrong, right: shown.right })} onClick={() => accept(shown, true)}>
            {t('learning.always')}
          </button>
          <button type="button" className="link-button" data-testid="panel-proposal-dismiss" onClick={() => (dismiss(shown), setStatus(null))}>
            {t('learning.dismiss')}
          </button>
        </>
      ) : (
        <span className={status?.ok === false ? 'field-error' : 'learn-proposal-text'} role="status" data-testid="panel-proposal-status">
          {status?.text}
        </span>
      )}
    </section>
  );
}
