/**
 * The stand-in's guard: every object it hands to the app is wrapped so that touching a property the
 * stand-in does not implement throws an {@link ElectronStandInError} naming it. A new Electron API in
 * the product therefore fails the whole-app tests loudly instead of silently doing nothing.
 */

/** Thrown when the app uses an Electron API the stand-in does not implement. */
export class ElectronStandInError extends Error {
  constructor(api: string) {
    super(`electron stand-in: ${api} is not implemented (the whole-app harness must implement it on real parts before the app may use it)`);
    this.name = 'ElectronStandInError';
  }
}

/** Properties the JS runtime itself probes (promise resolution, inspection, coercion): never an API use. */
const RUNTIME_PROBES = new Set<PropertyKey>(['then', 'toJSON', 'constructor', 'asymmetricMatch', '$$typeof', 'nodeType', 'inspect']);

/** Wraps `target` so reads of unknown properties throw; `name` prefixes the error (e.g. `app`). */
export function strict<T extends object>(name: string, target: T): T {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      if (prop in obj || typeof prop === 'symbol' || RUNTIME_PROBES.has(prop)) return Reflect.get(obj, prop, receiver);
      throw new ElectronStandInError(`${name}.${String(prop)}`);
    },
  });
}
