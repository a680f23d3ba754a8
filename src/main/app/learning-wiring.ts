/**
 * Learning from edits in the running app: the learner of the dictation graph (the one its confirmed
 * dictations feed), or one over Settings' vocabulary when dictation is not running; the History edit path
 * feeding it; and where "always" writes its replacement rule (the text-rules store).
 */
import type { VocabularyStore } from '../enhance/vocabulary-store.ts';
import type { ReplacementRuleInput } from '../enhance/edit-learning/edit-learner.ts';
import { editLearnerOver } from '../dictation/service-graph.ts';
import { historyWithLearning, learningServiceOf } from '../ipc/handlers/learning.ts';
import type { HistoryApi, LearningService } from '../ipc/services.ts';
import type { ConfigStore } from '../settings/config-store.ts';
import { RuleStore } from '../text-rules/rule-store.ts';
import type { DictationApp } from './dictation-app.ts';

/** What {@link learningServices} is built over. */
export interface LearningWiringDeps {
  readonly dataDir: string;
  readonly config: Pick<ConfigStore, 'get'>;
  readonly vocabulary: VocabularyStore;
  readonly dictation: Pick<DictationApp, 'graph'> | null;
  readonly history: HistoryApi;
  readonly warn: (message: string) => void;
}

/** The `learning:*` service and the History API whose edits feed it. */
export function learningServices(deps: LearningWiringDeps): { readonly learning: LearningService; readonly history: HistoryApi } {
  const learner = deps.dictation?.graph.learner ?? editLearnerOver(deps.vocabulary, deps.dataDir, () => deps.config.get(), deps.warn);
  learner.setRuleWriter(replacementRuleWriter(deps.dataDir));
  return { learning: learningServiceOf(learner), history: historyWithLearning(deps.history, learner) };
}

/**
 * Where "always" writes: the user's replacement rules (src/main/text-rules/rule-store.ts, `text-rules.json`),
 * which every dictation applies before the LLM and before paste. The store reads the file at each use, so
 * the rule applies from the next dictation on.
 */
export function replacementRuleWriter(dataDir: string): (rule: ReplacementRuleInput) => unknown {
  const rules = new RuleStore(dataDir);
  return (rule) => rules.addReplacementRule(rule);
}
