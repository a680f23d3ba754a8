/** `rules:*`: thin wrappers over {@link TextRulesApi}, and the API over the data folder's rules file. */
import type { TextRulesListWire, TextRulesTryWire, ReplacementRuleWire, SnippetWire } from '../../../shared/ipc/text-rules-contract.ts';
import type { Config } from '../../../shared/config/config-schema.ts';
import { applyForDictation } from '../../text-rules/dictation-rules.ts';
import { RuleStore } from '../../text-rules/rule-store.ts';
import type { IpcHandlers } from '../dispatcher.ts';

/** What Settings does with replacement rules and snippets. */
export interface TextRulesApi {
  list(): TextRulesListWire;
  saveReplacement(r: { readonly id?: string | undefined; readonly heard: string; readonly written: string; readonly samePinyin: boolean; readonly anywhere: boolean }): ReplacementRuleWire;
  saveSnippet(s: { readonly id?: string | undefined; readonly trigger: string; readonly text: string }): SnippetWire;
  remove(id: string): boolean;
  /** `text` through the dictation's own pipeline (config switches of `mode`, default the configured mode). */
  tryText(text: string, mode?: string): TextRulesTryWire;
}

type Channels = 'rules:list' | 'rules:save-replacement' | 'rules:save-snippet' | 'rules:remove' | 'rules:try';

/** Handlers of the text rules; `api` is absent in set-ups without a data folder. */
export function textRulesHandlers(api: TextRulesApi | undefined): Pick<IpcHandlers, Channels> {
  const get = (): TextRulesApi => {
    if (!api) throw new Error('text rules are not available in this window set-up');
    return api;
  };
  return {
    'rules:list': () => get().list(),
    'rules:save-replacement': (r) => get().saveReplacement(r),
    'rules:save-snippet': (s) => get().saveSnippet(s),
    'rules:remove': ({ id }) => get().remove(id),
    'rules:try': ({ text, mode }) => get().tryText(text, mode),
  };
}

/**
 * The API over `<dataDir>/text-rules.json` (the file every dictation reads). Editing a rule whose heard
 * text (a snippet whose trigger) changed removes the old one, so an edit never leaves both behind.
 */
export function textRulesApiOf(dataDir: string, config: () => Config): TextRulesApi {
  const store = new RuleStore(dataDir);
  const dropIfRenamed = (id: string | undefined, key: string, current: (id: string) => string | undefined): void => {
    if (id === undefined) return;
    const before = current(id);
    if (before !== undefined && before.toLowerCase() !== key.trim().toLowerCase()) store.remove(id);
  };
  return {
    list: () => {
      const f = store.read();
      return { replacements: f.replacements, snippets: f.snippets, damaged: f.damaged ?? null };
    },
    saveReplacement: (r) => {
      dropIfRenamed(r.id, r.heard, (id) => store.read().replacements.find((x) => x.id === id)?.heard);
      return store.addReplacementRule({ heard: r.heard, written: r.written, samePinyin: r.samePinyin, anywhere: r.anywhere });
    },
    saveSnippet: (s) => {
      dropIfRenamed(s.id, s.trigger, (id) => store.read().snippets.find((x) => x.id === id)?.trigger);
      return store.addSnippet({ trigger: s.trigger, text: s.text });
    },
    remove: (id) => store.remove(id),
    tryText: (text, mode) => {
      const c = config();
      return applyForDictation(store, c, mode ?? c.ai_enhance.mode, text);
    },
  };
}
