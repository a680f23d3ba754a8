import { useMemo, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { TextRulesReport } from '../../shared/history/record.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { diffParts, vocabularyPair } from '../lib/preview-diff.ts';

/** The diff between the transcript and the final text; clicking a change adds `wrong → right` to the vocabulary. */
export function DiffView({ bridge, asrText, finalText, textRules }: { readonly bridge: TingxieBridge; readonly asrText: string; readonly finalText: string; readonly textRules?: TextRulesReport | null }) {
  const { t } = useI18n();
  const parts = useMemo(() => diffParts(asrText, finalText), [asrText, finalText]);
  const [status, setStatus] = useState<{ readonly ok: boolean; readonly text: string } | null>(null);
  const changes = parts.filter((p) => p.kind === 'change');
  const add = (wrong: string, right: string): void => {
    bridge.vocabulary.add({ wrong, right }).then(
      () => setStatus({ ok: true, text: t('panel.diff.added', { wrong, right }) }),
      (err: unknown) => setStatus({ ok: false, text: t('panel.diff.failed', { message: err instanceof Error ? err.message : String(err) }) }),
    );
  };
  return (
    <section className="panel-section panel-diff" aria-label={t('panel.diff.title')} data-testid="panel-diff">
      <h2 className="panel-label">{t('panel.diff.title')}</h2>
      {changes.length === 0 ? (
        <p className="help">{t('panel.diff.none')}</p>
      ) : (
        <p className="diff-text">
          {parts.map((p, i) => {
            if (p.kind === 'same') return <span key={i}>{p.text}</span>;
            const pair = vocabularyPair(p);
            const body = (
              <>
                {p.from !== '' ? <del>{p.from}</del> : null}
                {p.to !== '' ? <ins>{p.to}</ins> : null}
              </>
            );
            return pair === null ? (
              <span key={i} className="diff-change">
                {body}
              </span>
            ) : (
              // Named by its visible text (WCAG 2.5.3, label in name); what a click does is its description.
              <button key={i} type="button" className="diff-change diff-pair" title={t('panel.diff.add', pair)} onClick={() => add(pair.wrong, pair.right)}>
                {body}
              </button>
            );
          })}
        </p>
      )}
      <RulesFired report={textRules ?? null} />
      {status ? (
        <p className={status.ok ? 'help' : 'field-error'} role="status" data-testid="panel-diff-status">
          {status.text}
        </p>
      ) : null}
    </section>
  );
}

/** What the text rules did before this text reached the AI and the diff (src/main/text-rules/): removed pieces, fired rules. */
function RulesFired({ report }: { readonly report: TextRulesReport | null }) {
  const { t } = useI18n();
  if (report === null || (report.removed.length === 0 && report.fired.length === 0)) return null;
  const sep = t('vocab.listSeparator');
  return (
    <p className="help" data-testid="panel-diff-rules">
      {report.removed.length > 0 ? t('rules.diff.removed', { items: report.removed.map((r) => `“${r.text}”`).join(sep) }) : null}
      {report.removed.length > 0 && report.fired.length > 0 ? ' ' : null}
      {report.fired.length > 0 ? t('rules.diff.fired', { items: report.fired.map((f) => `${f.from} → ${f.to.split('\n')[0] ?? ''}`).join(sep) }) : null}
    </p>
  );
}
