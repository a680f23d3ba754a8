import { useState } from 'react';
import type { ReplacementRuleWire, SnippetWire } from '../../shared/ipc/text-rules-contract.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** What saving a replacement sends (an `id`: an edit of that rule). */
export interface ReplacementDraft {
  readonly id?: string;
  readonly heard: string;
  readonly written: string;
  readonly samePinyin: boolean;
  readonly anywhere: boolean;
}

const emptyRule: ReplacementDraft = { heard: '', written: '', samePinyin: false, anywhere: false };

/** The rule form (adding, or editing `draft.id`); resolves true when saved, so it clears. */
function RuleForm({ initial, onSave, onCancel }: { readonly initial: ReplacementDraft; readonly onSave: (d: ReplacementDraft) => Promise<boolean>; readonly onCancel?: () => void }) {
  const { t } = useI18n();
  const [d, setD] = useState(initial);
  const key = initial.id ?? 'new';
  return (
    <form
      className="row"
      data-testid={`rule-form-${key}`}
      onSubmit={(e) => {
        e.preventDefault();
        void onSave(d).then((ok) => ok && initial.id === undefined && setD(emptyRule));
      }}
    >
      <input aria-label={t('rules.heard')} placeholder={t('rules.heard')} className="text" maxLength={200} value={d.heard} onChange={(e) => setD({ ...d, heard: e.currentTarget.value })} />
      <span aria-hidden="true">→</span>
      <input aria-label={t('rules.written')} placeholder={t('rules.written')} className="text" maxLength={2000} value={d.written} onChange={(e) => setD({ ...d, written: e.currentTarget.value })} />
      <label title={t('rules.samePinyin.help')}>
        <input type="checkbox" checked={d.samePinyin} onChange={(e) => setD({ ...d, samePinyin: e.currentTarget.checked })} /> {t('rules.samePinyin')}
      </label>
      <label>
        <input type="checkbox" checked={d.anywhere} onChange={(e) => setD({ ...d, anywhere: e.currentTarget.checked })} /> {t('rules.anywhere')}
      </label>
      <button type="submit" className="primary" disabled={d.heard.trim() === ''}>
        {initial.id === undefined ? t('rules.add') : t('rules.save')}
      </button>
      {onCancel ? (
        <button type="button" onClick={onCancel}>
          {t('rules.cancel')}
        </button>
      ) : null}
    </form>
  );
}

/** Replacement rules: the add form, then each rule with Edit and Delete. */
export function ReplacementsEditor(props: { readonly rules: readonly ReplacementRuleWire[]; readonly onSave: (d: ReplacementDraft) => Promise<boolean>; readonly onRemove: (id: string) => void }) {
  const { t } = useI18n();
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <>
      <h3>{t('rules.replace.title')}</h3>
      <p className="help">{t('rules.replace.help')}</p>
      <div className="group" data-testid="rules-replacements">
        <RuleForm initial={emptyRule} onSave={props.onSave} />
        {props.rules.length === 0 ? <p className="row help">{t('rules.none')}</p> : null}
          {props.rules.map((r) =>
            editing === r.id ? (
              <RuleForm key={r.id} initial={{ id: r.id, heard: r.heard, written: r.written, samePinyin: r.same_pinyin, anywhere: r.anywhere }} onSave={async (d) => (await props.onSave(d)) && (setEditing(null), true)} onCancel={() => setEditing(null)} />
            ) : (
              <div key={r.id} className="row">
                <span className="row-text">
                  {r.heard} → {r.written}
                </span>
                {r.same_pinyin ? <span className="tag">{t('rules.samePinyin')}</span> : null}
                {r.anywhere ? <span className="tag">{t('rules.anywhere')}</span> : null}
                <button type="button" aria-label={`${t('rules.edit')} ${r.heard}`} onClick={() => setEditing(r.id)}>
                  {t('rules.edit')}
                </button>
                <button type="button" aria-label={`${t('rules.delete')} ${r.heard}`} onClick={() => props.onRemove(r.id)}>
                  {t('rules.delete')}
                </button>
              </div>
            ),
          )}
      </div>
    </>
  );
}

/** What saving a snippet sends. */
export interface SnippetDraft {
  readonly id?: string;
  readonly trigger: string;
  readonly text: string;
}

/** The snippet form (adding, or editing `initial.id`). */
function SnippetForm({ initial, onSave, onCancel }: { readonly initial: SnippetDraft; readonly onSave: (d: SnippetDraft) => Promise<boolean>; readonly onCancel?: () => void }) {
  const { t } = useI18n();
  const [d, setD] = useState(initial);
  return (
    <form
      className="row-block"
      data-testid={`snippet-form-${initial.id ?? 'new'}`}
      onSubmit={(e) => {
        e.preventDefault();
        void onSave(d).then((ok) => ok && initial.id === undefined && setD({ trigger: '', text: '' }));
      }}
    >
      <input aria-label={t('rules.trigger')} placeholder={t('rules.trigger')} className="text" maxLength={200} value={d.trigger} onChange={(e) => setD({ ...d, trigger: e.currentTarget.value })} />
      <textarea aria-label={t('rules.text')} placeholder={t('rules.text')} rows={3} maxLength={20_000} value={d.text} onChange={(e) => setD({ ...d, text: e.currentTarget.value })} />
      <div>
        <button type="submit" className="primary" disabled={d.trigger.trim() === '' || d.text === ''}>
          {initial.id === undefined ? t('rules.add') : t('rules.save')}
        </button>
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            {t('rules.cancel')}
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** Snippets: the add form, then each snippet with Edit and Delete. */
export function SnippetsEditor(props: { readonly snippets: readonly SnippetWire[]; readonly onSave: (d: SnippetDraft) => Promise<boolean>; readonly onRemove: (id: string) => void }) {
  const { t } = useI18n();
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <>
      <h3>{t('rules.snippet.title')}</h3>
      <p className="help">{t('rules.snippet.help')}</p>
      <div className="group" data-testid="rules-snippets">
        <SnippetForm initial={{ trigger: '', text: '' }} onSave={props.onSave} />
        {props.snippets.length === 0 ? <p className="row help">{t('rules.snippet.none')}</p> : null}
          {props.snippets.map((s) =>
            editing === s.id ? (
              <SnippetForm key={s.id} initial={s} onSave={async (d) => (await props.onSave(d)) && (setEditing(null), true)} onCancel={() => setEditing(null)} />
            ) : (
              <div key={s.id} className="row">
                <span className="row-text">
                  <span className="row-label">“{s.trigger}”</span>
                  <Lines className="help" text={s.text} />
                </span>
                <button type="button" aria-label={`${t('rules.edit')} ${s.trigger}`} onClick={() => setEditing(s.id)}>
                  {t('rules.edit')}
                </button>
                <button type="button" aria-label={`${t('rules.delete')} ${s.trigger}`} onClick={() => props.onRemove(s.id)}>
                  {t('rules.delete')}
                </button>
              </div>
            ),
          )}
      </div>
    </>
  );
}

/** Multi-line text shown as lines (the page's CSP allows no inline style for pre-wrap). */
export function Lines({ text, className }: { readonly text: string; readonly className?: string }) {
  const lines = text.split('\n');
  return (
    <span className={className}>
      {lines.map((l, i) => (
        <span key={i}>
          {l}
          {i < lines.length - 1 ? <br /> : null}
        </span>
      ))}
    </span>
  );
}
