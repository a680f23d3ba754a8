import type { ReactNode } from 'react';

/** Props of a settings row: a label (bound to the control by `htmlFor`), help and error text, the control. */
export interface SettingRowProps {
  readonly id: string;
  readonly label: string;
  readonly help?: string | undefined;
  readonly error?: string | null | undefined;
  /** 'block' stacks the control under the label (text areas, wide fields). */
  readonly layout?: 'inline' | 'block';
  readonly children: ReactNode;
}

/** The ids a control uses for aria-describedby so screen readers read its help and error. */
export function describedBy(id: string, help: string | undefined, error: string | null | undefined): string | undefined {
  const ids = [help ? `${id}-help` : null, error ? `${id}-error` : null].filter((x): x is string => x !== null);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** One labelled row of a settings group, with its help text and field-level error. */
export function SettingRow({ id, label, help, error, layout = 'inline', children }: SettingRowProps) {
  const text = (
    <span className="row-text">
      <label className="row-label" htmlFor={id}>
        {label}
      </label>
      {help ? (
        <span className="help" id={`${id}-help`}>
          {help}
        </span>
      ) : null}
      {error ? (
        <span className="field-error" id={`${id}-error`} role="alert" data-testid={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </span>
  );
  return layout === 'block' ? (
    <div className="row-block">
      {text}
      {children}
    </div>
  ) : (
    <div className="row">
      {text}
      {children}
    </div>
  );
}
