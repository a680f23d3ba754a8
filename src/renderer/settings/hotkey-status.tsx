import { useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { HotkeyStatusWire } from '../../shared/ipc/dictation-types.ts';
import type { ConfigSnapshot } from '../../shared/ipc/wire-types.ts';
import { Banner } from '../components/banner.tsx';
import { useI18n } from '../lib/i18n-context.ts';

/**
 * Says, next to the hotkey settings, when a hotkey does not work: the key hook failed to start (no
 * Accessibility permission, Wayland without XWayland), the toggle shortcut is taken by another app, or a
 * key name cannot be used. Re-read whenever the config changes (main re-registers then) and when main
 * sends a notice. Shows nothing when all is well or when there is no dictation service behind the window.
 */
export function HotkeyStatus({ bridge, config }: { readonly bridge: TingxieBridge; readonly config: ConfigSnapshot }) {
  const { t } = useI18n();
  const [status, setStatus] = useState<HotkeyStatusWire | null>(null);
  useEffect(() => {
    let live = true;
    const load = (): void => {
      bridge.dictation.hotkeys().then((s) => live && setStatus(s), () => live && setStatus(null));
    };
    load();
    const off = bridge.on.appNotice(load);
    return () => {
      live = false;
      off();
    };
  }, [bridge, config]);
  if (status === null) return null;
  const lines: string[] = [];
  if (status.hook === 'failed') lines.push(`${t('hotkeys.hookFailed')}${status.hookError ? ` (${status.hookError})` : ''}`);
  if (status.toggle && !status.toggle.registered) lines.push(`${t('hotkeys.toggleFailed')} ${status.toggle.accelerator}${status.toggle.error ? ` (${status.toggle.error})` : ''}`);
  for (const p of status.problems) lines.push(p);
  if (lines.length === 0) return null;
  return (
    <Banner tone="warning" testId="hotkey-status">
      <strong>{t('hotkeys.problem')}</strong>
      <ul>
        {lines.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
    </Banner>
  );
}
