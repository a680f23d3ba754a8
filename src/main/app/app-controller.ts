/** The dictation controller over the app's ports: the service graph, the capture, the paste and the windows. */
import type { Config } from '../../shared/config/config-schema.ts';
import type { DictationEvent } from '../../shared/ipc/dictation-types.ts';
import { DictationController } from '../dictation/controller.ts';
import type { ServiceGraph } from '../dictation/service-graph.ts';
import type { SoundingCapture } from '../dictation/sounding-capture.ts';
import type { FocusPort } from '../platform/focus.ts';
import { platformInputContext } from '../platform/input-context.ts';
import type { Logger } from '../platform/logger.ts';
import { displayServer } from '../platform/paste-plan.ts';
import type { PasteService } from '../platform/paste.ts';

/** What {@link createAppController} connects. */
export interface AppControllerDeps {
  readonly dataDir: string;
  readonly config: () => Config;
  readonly capture: SoundingCapture;
  readonly ports: ServiceGraph['ports'];
  /** The focus port the paste uses too (one lookup of the focused window serves both). */
  readonly focus: FocusPort;
  readonly paste: PasteService;
  /** Every controller event (dictation-events.ts). */
  readonly emit: (e: DictationEvent) => void;
  /** Shows or hides the preview panel (panel-visibility.ts). */
  readonly panel: (show: boolean) => void;
  readonly log: Logger;
}

/** Builds the controller of the running app. */
export function createAppController(deps: AppControllerDeps): DictationController {
  return new DictationController({
    dataDir: deps.dataDir,
    config: deps.config,
    capture: deps.capture,
    asr: deps.ports.asr,
    enhance: deps.ports.enhance,
    history: deps.ports.history,
    vocabulary: deps.ports.vocabulary,
    textRules: deps.ports.textRules,
    // Read at key-down (press), as the focus is remembered for the paste.
    inputContext: platformInputContext(process.platform, displayServer(process.env), undefined, deps.focus),
    output: deps.paste,
    ui: {
      emit: deps.emit,
      panel: deps.panel,
      // Sounds are played by SoundingCapture around the real capture, so they are never recorded.
      sound: () => undefined,
    },
    log: (level, m, f) => deps.log.log(level, m, f),
  });
}
