import { useLayoutEffect, useRef, useState } from 'react';
import { useI18n } from '../lib/i18n-context.ts';

/**
 * The transcript row: the ASR text, or that it is pending or failed. Collapsed it shows two lines; when
 * the text is longer a "More" toggle says so and opens it whole (a longer one scrolls inside its
 * expanded box), so it is never silently cut mid-sentence.
 */
export function AsrRow({ asrText, failed }: { readonly asrText: string; readonly failed: boolean }) {
  const { t } = useI18n();
  const text = useRef<HTMLParagraphElement>(null);
  // Open for this transcript only: a new dictation starts collapsed again.
  const [openFor, setOpenFor] = useState<string | null>(null);
  const open = openFor === asrText;
  const [overflows, setOverflows] = useState(false);
  // Whether the collapsed text has more than it shows; measured again when the text or the width changes.
  useLayoutEffect(() => {
    const el = text.current;
    if (el === null) return;
    const update = (): void => setOverflows(el.classList.contains('is-open') || el.scrollHeight > el.clientHeight + 1);
    update();
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => ro.disconnect();
  }, [asrText]);
  return (
    <section className="panel-asr-row" aria-labelledby="panel-asr-label">
      <h2 className="panel-label" id="panel-asr-label">
        {t('panel.asr')}
      </h2>
      <p ref={text} id="panel-asr" className={`panel-asr${open ? ' is-open' : ''}`} data-testid="panel-asr" tabIndex={open || overflows ? 0 : undefined}>
        {asrText || (failed ? t('panel.asr.failed') : t('panel.asr.pending'))}
      </p>
      {overflows || open ? (
        <button type="button" className="link-button panel-asr-toggle" aria-expanded={open} aria-controls="panel-asr" data-testid="panel-asr-toggle" onClick={() => setOpenFor(open ? null : asrText)}>
          {open ? t('panel.asr.less') : t('panel.asr.more')}
        </button>
      ) : null}
    </section>
  );
}
