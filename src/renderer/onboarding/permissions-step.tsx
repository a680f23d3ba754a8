import { useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { PermissionCheck, PermissionReport } from '../../shared/ipc/onboarding-contract.ts';
import { errorText } from '../lib/errors.ts';
import type { MessageKey } from '../lib/i18n.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** How often the checks are read again: a switch flipped in System Settings turns its row green within this. */
const POLL_MS = 1500;

/** The note on what this OS asks for (Linux: per display server). */
function osNote(report: PermissionReport): MessageKey {
  if (report.platform === 'darwin') return 'onboarding.perm.note.mac';
  if (report.platform === 'win32') return 'onboarding.perm.note.win';
  return report.session === 'wayland' ? 'onboarding.perm.note.wayland' : 'onboarding.perm.note.x11';
}

/** The pane button's words per OS. */
function openLabel(platform: string, check: PermissionCheck): MessageKey {
  if (check.id === 'microphone' && check.state === 'not-determined') return 'onboarding.perm.ask';
  return platform === 'darwin' ? 'onboarding.perm.open.mac' : 'onboarding.perm.open.win';
}

/** Step: what the OS must allow (microphone; on macOS Accessibility and Input Monitoring), checked live. */
export function PermissionsStep({ bridge }: { readonly bridge: TingxieBridge }) {
  const { t } = useI18n();
  const [report, setReport] = useState<PermissionReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const read = (): void => {
      bridge.onboarding.permissions().then(
        (r) => live && setReport(r),
        (e: unknown) => live && setError(errorText(e)),
      );
    };
    read();
    const timer = setInterval(read, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [bridge]);
  const open = (check: PermissionCheck): void => {
    bridge.onboarding.openPermission({ id: check.id }).catch((e: unknown) => setError(errorText(e)));
  };
  return (
    <>
      <h2 className="step-heading">{t('onboarding.perm.heading')}</h2>
      {report ? <p className="help step-help">{t(osNote(report))}</p> : null}
      <ul className="perm-list" data-testid="permissions">
        {report?.checks.map((c) => (
          <li key={c.id} className={`perm perm-${c.state}`} data-testid={`perm-${c.id}`}>
            <span className="perm-mark" aria-hidden="true">
              {c.state === 'granted' ? '✓' : c.state === 'denied' ? '!' : '…'}
            </span>
            <span className="perm-text">
              <span className="row-label">{t(`onboarding.perm.${c.id}.${report.platform === 'darwin' ? 'mac' : 'other'}`)}</span>
              <span className="help">{t(`onboarding.perm.${c.id}.why`)}</span>
              <span className={c.state === 'granted' ? 'perm-state status-set' : c.state === 'denied' ? 'perm-state field-error' : 'perm-state help'}>{t(`onboarding.perm.state.${c.state}`)}</span>
            </span>
            {c.canOpen && c.state !== 'granted' ? (
              <button type="button" onClick={() => open(c)}>
                {t(openLabel(report.platform, c))}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {error ? <p className="field-error">{error}</p> : null}
    </>
  );
}
