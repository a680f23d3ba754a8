import { useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { ProviderCheckResult } from '../../shared/ipc/provider-types.ts';
import { providerCheckText } from '../../shared/notices/provider-check-text.ts';
import { errorText } from '../lib/errors.ts';
import { useI18n } from '../lib/i18n-context.ts';

type VerifyState = { readonly kind: 'idle' } | { readonly kind: 'running' } | { readonly kind: 'done'; readonly result: ProviderCheckResult } | { readonly kind: 'error'; readonly message: string };

/**
 * Verify for one provider: main sends a real dictation's request (the key never leaves main) and the result is
 * said in the window's language — green only when a cleaned text came back, otherwise what to change.
 */
export function VerifyRow({ bridge, providerId, settled }: { readonly bridge: TingxieBridge; readonly providerId: string; readonly settled?: () => Promise<unknown> }) {
  const { t, lang } = useI18n();
  const [state, setState] = useState<VerifyState>({ kind: 'idle' });
  const verify = () => {
    setState({ kind: 'running' });
    // A setting committed by this very click (the field lost focus) is saved before the check reads the config.
    (settled?.() ?? Promise.resolve())
      .then(() => bridge.providers.verify({ providerId }))
      .then(
        (result) => setState({ kind: 'done', result }),
        (e: unknown) => setState({ kind: 'error', message: errorText(e) }),
      );
  };
  const ok = state.kind === 'done' && state.result.ok;
  const text =
    state.kind === 'running'
      ? t('ai.verify.sending')
      : state.kind === 'done'
        ? ok
          ? providerCheckText(lang, state.result)
          : t('ai.verify.fail', { message: providerCheckText(lang, state.result) })
        : state.kind === 'error'
          ? t('ai.verify.fail', { message: state.message })
          : '';
  return (
    <div className="row">
      <span className="row-text">
        <span className="help" id="verify-help">
          {t('ai.verify.help')}
        </span>
        <span
          className={state.kind === 'done' || state.kind === 'error' ? (ok ? 'status status-set' : 'field-error') : 'status'}
          role="status"
          data-testid="verify-result"
          data-verdict={state.kind === 'done' ? state.result.code : state.kind}
        >
          {text}
        </span>
      </span>
      <button type="button" onClick={verify} disabled={state.kind === 'running'} aria-describedby="verify-help">
        {t('ai.verify')}
      </button>
    </div>
  );
}
