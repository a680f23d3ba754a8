/**
 * A rule's output as one choice in the editor: the config keeps `method` (default/paste/copy) and
 * `submit` (default/none/enter/shift+enter/mod+enter) apart (shared/config/app-rules.ts); the user picks
 * one of "as in General", "Paste", "Paste + Enter", …, "Copy only". Pure, so it is unit-tested.
 */
import type { AppRule } from '../../shared/config/app-rules.ts';

/** The editor's output choices, in menu order. */
export const OUTPUT_CHOICES = ['default', 'paste', 'paste-enter', 'paste-shift-enter', 'paste-mod-enter', 'copy'] as const;
export type OutputChoice = (typeof OUTPUT_CHOICES)[number];

/** The choice a rule's method and submit key show as. */
export function outputChoiceOf(rule: Pick<AppRule, 'method' | 'submit'>): OutputChoice {
  if (rule.method === 'copy') return 'copy';
  if (rule.method === 'default' && rule.submit === 'default') return 'default';
  switch (rule.submit) {
    case 'enter':
      return 'paste-enter';
    case 'shift+enter':
      return 'paste-shift-enter';
    case 'mod+enter':
      return 'paste-mod-enter';
    default:
      return 'paste';
  }
}

/** The method and submit key a choice is kept as. */
export function ruleOutputOf(choice: OutputChoice): Pick<AppRule, 'method' | 'submit'> {
  switch (choice) {
    case 'default':
      return { method: 'default', submit: 'default' };
    case 'copy':
      return { method: 'copy', submit: 'default' };
    case 'paste':
      return { method: 'paste', submit: 'none' };
    case 'paste-enter':
      return { method: 'paste', submit: 'enter' };
    case 'paste-shift-enter':
      return { method: 'paste', submit: 'shift+enter' };
    case 'paste-mod-enter':
      return { method: 'paste', submit: 'mod+enter' };
  }
}

/** The modifier of "mod+enter" on `platform`: Cmd on macOS, Ctrl elsewhere. */
export function modKeyName(platform: string): string {
  return platform === 'darwin' ? '⌘' : 'Ctrl';
}

/** Rules as config.json holds them (parsed leniently: what the schema filled in stays as it is). */
export function rulesFrom(value: unknown): AppRule[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v): AppRule[] => {
    if (v === null || typeof v !== 'object') return [];
    const r = v as Partial<AppRule>;
    return [{
      label: r.label ?? '',
      app: r.app ?? '',
      title: r.title ?? '',
      domain: r.domain ?? '',
      mode: r.mode ?? '',
      method: r.method ?? 'default',
      submit: r.submit ?? 'default',
      enabled: r.enabled ?? true,
    }];
  });
}
