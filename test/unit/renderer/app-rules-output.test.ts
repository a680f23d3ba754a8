import { describe, expect, it } from 'vitest';
import { modKeyName, OUTPUT_CHOICES, outputChoiceOf, ruleOutputOf, rulesFrom } from '../../../src/renderer/settings/app-rules-output.ts';
import { appRulesSchema } from '../../../src/shared/config/app-rules.ts';

describe('a rule’s output as one choice', () => {
  it('every choice round-trips through method + submit, and each is a valid rule', () => {
    for (const c of OUTPUT_CHOICES) {
      expect(outputChoiceOf(ruleOutputOf(c))).toBe(c);
      expect(appRulesSchema.safeParse([{ app: 'x', ...ruleOutputOf(c) }]).success).toBe(true);
    }
    expect(ruleOutputOf('paste-mod-enter')).toEqual({ method: 'paste', submit: 'mod+enter' });
    // A hand-written rule that sets only a submit key pastes and presses it.
    expect(outputChoiceOf({ method: 'default', submit: 'enter' })).toBe('paste-enter');
    expect(outputChoiceOf({ method: 'copy', submit: 'enter' })).toBe('copy');
  });

  it('mod is ⌘ on macOS, Ctrl elsewhere; rules from config.json are read leniently', () => {
    expect([modKeyName('darwin'), modKeyName('win32'), modKeyName('linux')]).toEqual(['⌘', 'Ctrl', 'Ctrl']);
    expect(rulesFrom([{ app: 'Slack' }, 'junk', null])).toEqual([{ label: '', app: 'Slack', title: '', domain: '', mode: '', method: 'default', submit: 'default', enabled: true }]);
    expect(rulesFrom(undefined)).toEqual([]);
  });
});
