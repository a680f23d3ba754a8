/** The dictation calls the windows make over IPC, answered by the controller, the capture link and the hotkeys. */
import type { CaptureLink } from '../dictation/capture-link.ts';
import type { DictationController } from '../dictation/controller.ts';
import type { DictationIpcService } from '../dictation/dictation-service.ts';
import { panelIpcService } from '../dictation/panel-service.ts';
import type { ServiceGraph } from '../dictation/service-graph.ts';
import type { AppHotkeys } from './hotkeys.ts';
import type { MicTester } from './mic-test.ts';

/** The IPC service of dictation (ipc/handlers call it once the payload is checked). */
export function dictationIpc(deps: { readonly controller: DictationController; readonly link: CaptureLink; readonly hotkeys: Pick<AppHotkeys, 'status'>; readonly enhancer: ServiceGraph['enhancer']; readonly micTest?: MicTester }): DictationIpcService {
  const { controller: c, link } = deps;
  return {
    frames: (id, seq, rate, pcm) => {
      // The setup guide's microphone test records under its own ids: never a dictation's audio.
      if (deps.micTest?.owns(id) === true) deps.micTest.frames(id, seq, rate, pcm);
      else c.frames(id, seq, rate, pcm);
      link.check(id);
    },
    captureStatus: (s) => link.report(s),
    snapshot: () => c.snapshot(),
    confirm: (id, text, action) => c.confirm(id, text, action),
    cancel: (id) => c.cancel(id),
    recoverable: () => c.recoverable(),
    recover: (id, action) => c.recover(id, action),
    hotkeys: () => deps.hotkeys.status(),
    // The preview panel's calls (mode list and re-run, prompt on demand, reopened previews).
    ...panelIpcService(c, deps.enhancer),
  };
}
