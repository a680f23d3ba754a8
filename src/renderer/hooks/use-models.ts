import { useCallback, useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { ModelItem } from '../../shared/ipc/settings-types.ts';
import { errorText } from '../lib/errors.ts';

/** The model list of a window, live (downloads pushed by main as `models:progress`), with its actions. */
export interface ModelsState {
  readonly models: readonly ModelItem[];
  /** Whether the first list has arrived (nothing is said about "not installed" before it). */
  readonly loaded: boolean;
  readonly error: string | null;
  readonly download: (name: string) => void;
  /** Stops a download, keeping the partial file: download() resumes from it. */
  readonly pause: (name: string) => void;
  /** Deletes the model and any partial download. */
  readonly remove: (name: string) => void;
}

/** Loads the models once, follows their downloads, re-reads the list when one ends. */
export function useModels(bridge: TingxieBridge): ModelsState {
  const [models, setModels] = useState<readonly ModelItem[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    bridge.models.list().then(
      (m) => {
        setModels(m);
        setLoaded(true);
      },
      (e: unknown) => setError(errorText(e)),
    );
  }, [bridge]);
  useEffect(load, [load]);
  useEffect(
    () =>
      bridge.on.modelsProgress(({ name, download }) => {
        // A finished download changes the installed size and state: re-read the list then.
        if (download.state === 'done') load();
        else setModels((list) => list.map((m) => (m.name === name ? { ...m, download } : m)));
      }),
    [bridge, load],
  );
  const act = (p: Promise<unknown>): void => {
    p.then(load, (e: unknown) => setError(errorText(e)));
  };
  return {
    models,
    loaded,
    error,
    download: (name) => act(bridge.models.download({ name })),
    pause: (name) => act(bridge.models.cancel({ name })),
    remove: (name) => act(bridge.models.delete({ name })),
  };
}
