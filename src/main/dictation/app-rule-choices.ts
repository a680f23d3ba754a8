/**
 * App rules at key-down (config `app_rules`, matched by src/shared/config/app-rules.ts): the key-down's
 * input-context read (context-reads.ts) is made as detailed as the rules need, and once it is known
 * the first matching rule's choice is handed to the controller — which switches the session's mode and
 * output while it records — and kept for the output step (its submit key). A mode the user picked for
 * the session (the mode keys, the panel) wins over the rule. What the prompt and the history record
 * get of the app stays `ai_enhance.input_context`'s (delivery.ts, enhance-step.ts).
 */
import { levelForRules, pickRule, type RuleChoice } from '../../shared/config/app-rules.ts';
import { inputContextLine } from '../enhance/input-context-line.ts';
import type { InputContextInfo } from '../ports/input-context-port.ts';
import type { DictationPorts } from '../ports/dictation-ports.ts';
import { ContextReads } from './context-reads.ts';
import type { MachineEvent, Session } from './session-types.ts';

/** Sessions whose choices are kept (a reopened preview or a retry still finds its own), as context-reads.ts. */
const KEPT = 16;

/** The submit key a paste ends with. */
export type SubmitKey = 'enter' | 'shift+enter' | 'mod+enter';

/** The input context and the rule choices of recent sessions. */
export class AppRuleChoices {
  private readonly chosen = new Map<string, RuleChoice>();
  private readonly ports: Pick<DictationPorts, 'config' | 'enhance' | 'inputContext' | 'log'>;
  private readonly contexts: ContextReads;

  constructor(ports: Pick<DictationPorts, 'config' | 'enhance' | 'inputContext' | 'log'>) {
    this.ports = ports;
    this.contexts = new ContextReads(ports);
  }

  /**
   * Reads the frontmost app for session `id` (key-down) and, when a rule matches it, dispatches the
   * rule's mode and output — while `current()` is still that session, and only if its mode is still the
   * one it started with: a mode the user picked meanwhile (mode keys, panel, tray) wins.
   */
  start(id: string, current: () => Pick<Session, 'id' | 'mode'> | null, dispatch: (e: MachineEvent) => void): void {
    const cfg = this.ports.config();
    const rules = cfg.app_rules;
    const startMode = cfg.ai_enhance.mode;
    this.contexts.capture(id, levelForRules(rules, cfg.ai_enhance.input_context));
    if (rules.length === 0) return;
    void this.contexts.of(id).then((who) => {
      const choice = pickRule(rules, who);
      if (choice === null) return;
      this.remember(id, choice);
      const s = current();
      if (s === null || s.id !== id || s.mode !== startMode) return;
      const mode = choice.mode ?? s.mode;
      const label = this.ports.enhance.modeLabel?.(mode) ?? mode;
      dispatch({ type: 'mode', mode, rule: choice.label, label, ...(choice.method !== undefined ? { method: choice.method } : {}) });
      // The key-down warm-up went to the starting mode: the rule's mode is warmed while the user still speaks.
      if (mode !== startMode) this.ports.enhance.prewarm?.(mode);
    });
  }

  /** Session `id`'s input context (null when off, unsupported, not read or forgotten). */
  context(id: string): Promise<InputContextInfo | null> {
    return this.contexts.of(id);
  }

  /** Session `id`'s input context as the prompt line it was sent with ('' when off or not read). */
  async promptLine(id: string): Promise<string> {
    const level = this.ports.config().ai_enhance.input_context;
    return level === 'off' ? '' : inputContextLine(await this.contexts.of(id), level);
  }

  /** The rule session `id` matched (undefined when none did or it is forgotten). */
  of(id: string): RuleChoice | undefined {
    return this.chosen.get(id);
  }

  /** The key pressed after session `id`'s paste: its rule's, else output.submit_key; undefined for none. */
  submitFor(id: string): SubmitKey | undefined {
    const key = this.chosen.get(id)?.submit ?? this.ports.config().output.submit_key;
    return key === 'none' ? undefined : key;
  }

  private remember(id: string, choice: RuleChoice): void {
    this.chosen.set(id, choice);
    while (this.chosen.size > KEPT) {
      const oldest = this.chosen.keys().next().value;
      if (oldest === undefined) break;
      this.chosen.delete(oldest);
    }
  }
}
