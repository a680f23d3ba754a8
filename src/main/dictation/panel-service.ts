/**
 * The preview panel's part of the dictation IPC service: the mode list, re-running a mode, the system
 * prompt on demand and delivering a reopened preview. Built over the controller and the enhancer, so
 * the app (app/dictation-app.ts) and the browser tests wire the same code.
 */
import type { DictationModeWire, DictationPromptWire } from '../../shared/ipc/dictation-types.ts';
import type { Enhancer } from '../enhance/enhancer.ts';
import type { DictationIpcService } from './dictation-service.ts';
import type { DictationController } from './controller.ts';

/** The panel methods of {@link DictationIpcService}. */
export type PanelIpcService = Pick<DictationIpcService, 'modes' | 'setMode' | 'prompt' | 'deliver' | 'hidePanel' | 'retry' | 'retryLast' | 'rerun'>;

/** Builds the panel's methods over a controller and the enhancer that serves it. */
export function panelIpcService(controller: DictationController, enhancer: Pick<Enhancer, 'modes' | 'buildRequest'>): PanelIpcService {
  return {
    modes: (): readonly DictationModeWire[] => enhancer.modes.map((m) => ({ id: m.id, label: m.label })),
    setMode: (sessionId, mode) => controller.setMode(mode, sessionId),
    prompt: async (sessionId, mode): Promise<DictationPromptWire> => {
      const snap = controller.snapshot();
      if (snap.sessionId !== sessionId) throw new Error('that dictation is no longer open');
      if (mode === 'off' || snap.asrText === '') return { mode, system: null, user: null };
      // Built now from the same sources as the real call; history added since may make it differ slightly.
      const built = await enhancer.buildRequest(snap.asrText, mode, await controller.inputContextLine(sessionId));
      if (built === null) return { mode, system: null, user: null };
      const system = built.request.messages.find((m) => m.role === 'system')?.content ?? null;
      const user = built.request.messages.findLast((m) => m.role === 'user')?.content ?? null;
      return { mode, system, user };
    },
    deliver: (text, action, sessionId) => controller.deliver(text, action, sessionId),
    hidePanel: () => controller.hidePanel(),
    retry: (sessionId) => controller.retry(sessionId),
    retryLast: () => controller.retryLast(),
    rerun: (text, mode, sttModel) => controller.rerun(text, mode, sttModel),
  };
}
