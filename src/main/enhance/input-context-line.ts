/**
 * The input context as the model sees it: one line in the prompt's dynamic tail, as
 * WenZi writes it (`{app[, "title", domain]}`). Read from the record shape (WenZi's object, or a plain
 * string from older files), so a reopened or imported record gives the same line.
 */

/** `ai_enhance.input_context`. */
export type InputContextSetting = 'off' | 'basic' | 'detailed';

function clean(s: string, max = 200): string {
  return s.replace(/\p{Cc}+/gu, ' ').trim().slice(0, max);
}

/**
 * The prompt's line for a captured context (WenZi's `{app[, "title", domain]}`): the app name, and at
 * `detailed` the window title and browser domain. `bundle_id` is never sent. '' when there is nothing.
 */
export function inputContextLine(ctx: unknown, level: InputContextSetting): string {
  if (level === 'off' || ctx === null || ctx === undefined) return '';
  if (typeof ctx === 'string') return clean(ctx);
  if (typeof ctx !== 'object') return '';
  const c = ctx as Record<string, unknown>;
  const str = (k: string): string => {
    const v = c[k];
    return typeof v === 'string' ? clean(v) : '';
  };
  const app = str('app_name');
  if (app === '') return '';
  if (level === 'basic') return app;
  const title = str('window_title');
  const domain = str('browser_domain');
  return [app, ...(title !== '' ? [JSON.stringify(title)] : []), ...(domain !== '' ? [domain] : [])].join(', ');
}
