/**
 * Types of the renderer-facing bridge, derived from the contract: `domain:verb` becomes
 * `tingxie.<domain>.<camelVerb>(request?)`, events become `tingxie.on.<camelEvent>(cb) → unsubscribe`.
 */
import type { EventChannel, InvokeChannel, invokeChannelArity } from './channels.ts';
import type { EventPayload, RequestInput, ResponseOf } from './contract.ts';

/**
 * Why a call was refused: the five ways a call can fail (`out-of-scope`: a Tingxie window called a channel
 * outside its per-window scope, window-scopes.ts).
 */
export type BridgeErrorCode = 'invalid-payload' | 'untrusted-sender' | 'out-of-scope' | 'unknown-channel' | 'handler-failed';

/** One problem with a payload: dotted path (`(root)` for the payload itself) and a readable message. */
export interface BridgeIssue {
  readonly path: string;
  /** The validator's own words (English): the log's, and the fallback when no code is known. */
  readonly message: string;
  /** The validator's issue code (too_small, too_big, invalid_type, …): the window says it in the UI language. */
  readonly code?: string;
  /** What the limit applies to: number, string (length), array (items). */
  readonly origin?: string;
  /** The bound of too_small / too_big. */
  readonly limit?: number;
  /** Whether the bound itself is allowed. */
  readonly inclusive?: boolean;
  /** The type invalid_type expected (number, int, string, boolean). */
  readonly expected?: string;
}

/** A refused call as it crosses IPC: plain data, no stack. */
export interface BridgeError {
  readonly code: BridgeErrorCode;
  readonly message: string;
  readonly issues?: readonly BridgeIssue[];
}

/** What main returns for every call (it never throws across IPC). */
export type Envelope<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: BridgeError };

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;
type DomainOf<C extends string> = C extends `${infer D}:${string}` ? D : never;
type VerbOf<C extends string> = C extends `${string}:${infer V}` ? V : never;

/** The domains (`config`, `secrets`, `app`, …). */
export type BridgeDomain = DomainOf<InvokeChannel>;

/** The bridge method name of an invoke channel (`app:open-external` → `openExternal`). */
export type MethodName<C extends InvokeChannel> = CamelCase<VerbOf<C>>;
/** The `tingxie.on.*` name of an event (`config:changed` → `configChanged`). */
export type EventMethodName<E extends EventChannel> = CamelCase<`${DomainOf<E>}-${VerbOf<E>}`>;

type Method<C extends InvokeChannel, R> = (typeof invokeChannelArity)[C] extends 0
  ? () => Promise<R>
  : (request: RequestInput<C>) => Promise<R>;

type Domains<Wrap extends 'value' | 'envelope'> = {
  readonly [D in BridgeDomain]: {
    readonly [C in InvokeChannel as C extends `${D}:${string}` ? MethodName<C> : never]: Method<
      C,
      Wrap extends 'value' ? ResponseOf<C> : Envelope<ResponseOf<C>>
    >;
  };
};

/** Subscriptions: each takes a callback and returns the function that unsubscribes it. */
export type BridgeEvents = {
  readonly [E in EventChannel as EventMethodName<E>]: (listener: (payload: EventPayload<E>) => void) => () => void;
};

/**
 * What renderer code uses (through src/renderer/lib/bridge.ts): each method resolves to the response
 * or rejects with a `BridgeCallError` (see envelope.ts).
 */
export type TingxieBridge = Domains<'value'> & { readonly on: BridgeEvents };

/**
 * What the preload exposes as `window.tingxie`: the same methods resolving to envelopes. Errors lose
 * their custom properties when crossing contextBridge, so code/issues travel as data and the renderer
 * turns them back into rejections (see `unwrapBridge`).
 */
export type TingxieWireBridge = Domains<'envelope'> & { readonly on: BridgeEvents };
