/** `learning:*`: thin wrappers over {@link LearningService}, and the History edit path that feeds it. */
import type { EditLearner } from '../../enhance/edit-learning/edit-learner.ts';
import type { IpcHandlers } from '../dispatcher.ts';
import type { HistoryApi, LearningService } from '../services.ts';

/** Handlers of the learning feature; `svc` is absent in set-ups without a vocabulary. */
export function learningHandlers(svc: LearningService | undefined): Pick<IpcHandlers, 'learning:propose' | 'learning:accept'> {
  const get = (): LearningService => {
    if (!svc) throw new Error('learning from edits is not available in this window set-up');
    return svc;
  };
  return {
    'learning:propose': ({ before, after }) => get().propose(before, after),
    'learning:accept': ({ wrong, right, kind, always }) => get().accept({ wrong, right, kind, always }),
  };
}

/** The learning service over the learner: the pair the renderer gets back is the stored one, without its counters. */
export function learningServiceOf(learner: EditLearner): LearningService {
  return {
    propose: (before, after) => learner.propose(before, after),
    accept: (p) => {
      const r = learner.accept({ wrong: p.wrong, right: p.right, always: p.always, ...(p.kind !== undefined ? { kind: p.kind } : {}) });
      return { pair: { id: r.pair.id, wrong: r.pair.wrong, right: r.pair.right }, rule: r.rule };
    },
  };
}

/**
 * The History Browser's edit path with learning: a saved edit of a record's final text is a confirmed
 * correction of what was shown (the enhanced text, else the recognized one), counted towards the pairs
 * added without asking.
 */
export function historyWithLearning(api: HistoryApi, learner: Pick<EditLearner, 'observe'>): HistoryApi {
  return {
    ...api,
    update: async (key, fields) => {
      const updated = await api.update(key, fields);
      if (updated !== null && typeof fields.final_text === 'string' && fields.asr_text === undefined && fields.enhanced_text === undefined) learner.observe(updated.enhanced_text ?? updated.asr_text, fields.final_text);
      return updated;
    },
  };
}
