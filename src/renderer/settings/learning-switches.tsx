import { SwitchField } from '../components/switch-field.tsx';
import { boolAt } from '../lib/config-view.ts';
import { useI18n } from '../lib/i18n-context.ts';
import type { TabProps } from './tab-props.ts';

/** The two switches of learning from edits (Settings › Vocabulary): propose pairs from edits; add a correction made twice without asking. */
export function LearningSwitches({ config, saver }: Pick<TabProps, 'config' | 'saver'>) {
  const { t } = useI18n();
  const learn = boolAt(config, 'ai_enhance.vocabulary.learn_from_edits', true);
  return (
    <>
      <SwitchField
        id="vocab-learn"
        label={t('learning.settings.learn')}
        help={t('learning.settings.learn.help')}
        checked={learn}
        error={saver.errors['ai_enhance.vocabulary.learn_from_edits']}
        onChange={(v) => saver.save('ai_enhance.vocabulary.learn_from_edits', v)}
      />
      <SwitchField
        id="vocab-auto-add"
        label={t('learning.settings.auto')}
        help={t('learning.settings.auto.help')}
        checked={boolAt(config, 'ai_enhance.vocabulary.auto_add_learned', true)}
        disabled={!learn}
        error={saver.errors['ai_enhance.vocabulary.auto_add_learned']}
        onChange={(v) => saver.save('ai_enhance.vocabulary.auto_add_learned', v)}
      />
    </>
  );
}
