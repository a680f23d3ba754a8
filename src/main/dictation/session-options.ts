/** The settings a dictation session snapshots from the config when it starts. */
import type { Config } from '../../shared/config/config-schema.ts';
import type { SessionOptions } from './session-types.ts';

/** Session options from the config (snapshotted at each session's start). */
export function optionsFromConfig(config: Config): SessionOptions {
  return {
    preview: config.output.preview,
    enhance: config.ai_enhance.enabled,
    method: config.output.method,
    previewOnFailure: config.output.preview_on_failure,
    timeouts: {
      recording: config.audio.max_recording_seconds * 1000,
      transcribing: 180_000,
      // The enhancer enforces its own deadline; this guard only catches a step that never returns.
      enhancing: (config.ai_enhance.timeout + config.ai_enhance.connection_timeout) * 1000 + 2000,
      preview: 30 * 60_000,
      output: 10_000,
    },
  };
}
