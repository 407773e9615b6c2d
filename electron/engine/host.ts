/**
 * The engine host: what a long-lived process (the Electron app, `cairn serve`) holds instead
 * of one engine, so the state dir can change without a restart. It owns the engine of the
 * state dir open now; a switch builds the new engine first (a dir that cannot be opened
 * leaves the old one serving), then retires the old one once the call that asked has its
 * answer. Transports talk to the host's dispatcher and events, which follow the current engine;
 * `state.switched` tells every window to reload its views. Opened dirs join the recent list.
 */
import type { StateInfo } from '../../shared/contract/state-info';
import type { EventName } from '../../shared/contract';
import type { EngineDeps } from './core/context';
import { createEngine, type Engine } from './engine';
import { describeSystemError, EngineError, isSystemError } from './core/errors';
import { StateDirMissingError } from './config/state-dir';
import type { Dispatcher } from './rpc/dispatcher';
import type { EventBus } from './rpc/events';
import { startBackgroundWork } from './startup';
import { recordRecent } from './app/state-dirs';

export interface EngineHostOptions {
  stateDir: string;
  deps?: EngineDeps;
  /** Create the first state dir when it does not exist (default true, as createEngine). */
  create?: boolean;
  /** Start each engine's background work (the index sync on open); default true. */
  background?: boolean;
}

export interface EngineHost {
  /** The engine serving now (changes on a switch: do not keep it). */
  current(): Engine;
  /** Dispatches to the current engine. */
  readonly dispatcher: Dispatcher;
  /** Every event of the current engine, and `state.switched`. */
  readonly events: Pick<EventBus, 'onAny'>;
  /** Serve `dir` from now on; resolves once the new engine answers. */
  switchTo(dir: string): Promise<StateInfo>;
  dispose(): Promise<void>;
}

/**
 * Why `dir` could not be opened, naming the folder, with the code of the cause: a folder that
 * is gone is `not_found`, one Cairn may not read `forbidden`, a full disk `unavailable` (the
 * errno table of core/errors.ts) — before, every failure was `bad_request` with Node's raw
 * message ("ENOTDIR: not a directory, scandir …").
 */
function cannotOpen(dir: string, err: unknown): EngineError {
  const head = `Cairn cannot open the folder ${dir}`;
  if (err instanceof StateDirMissingError) return new EngineError('not_found', `${head}: it does not exist (it may have been moved or deleted).`);
  if (err instanceof EngineError) return new EngineError(err.code, `${head}: ${err.message}`, err.fields);
  if (isSystemError(err)) {
    const d = describeSystemError(err);
    return new EngineError(d.code, `${head}: ${d.message}`);
  }
  return new EngineError('internal', `${head}: ${err instanceof Error ? err.message : String(err)}`);
}

function infoOf(e: Engine): StateInfo {
  const s = e.ctx.state();
  return { stateDir: s.stateDir, writable: s.writable, createdBy: s.createdBy };
}

export function createEngineHost(opts: EngineHostOptions): EngineHost {
  const listeners = new Set<(event: EventName, payload: unknown) => void>();
  const fan = (event: EventName, payload: unknown) => {
    for (const l of listeners) l(event, payload);
  };
  const env = opts.deps?.env ?? process.env; // before any engine (and its ctx.env()) exists
  let current: Engine;
  let unforward: () => void = () => undefined;
  let disposed = false;

  const start = (stateDir: string, create: boolean | undefined): Engine => {
    const e = createEngine({ stateDir, deps: { ...opts.deps, switchStateDir: (dir) => host.switchTo(dir) }, ...(create === undefined ? {} : { create }) });
    try {
      recordRecent(stateDir, env, e.ctx.now());
    } catch (err) {
      e.ctx.warn(`the recent folders list could not be saved: ${(err as Error).message}`);
    }
    return e;
  };
  const adopt = (e: Engine) => {
    unforward();
    current = e;
    unforward = e.events.onAny(fan);
    if (opts.background !== false) startBackgroundWork(e);
  };

  const host: EngineHost = {
    current: () => current,
    dispatcher: {
      dispatch: (channel, request, opId) => current.dispatcher.dispatch(channel, request, opId),
      abortAll: () => current.dispatcher.abortAll(),
    },
    events: {
      onAny(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    async switchTo(dir) {
      if (disposed) throw new EngineError('unavailable', 'Cairn is shutting down');
      let next: Engine;
      try {
        next = start(dir, false);
      } catch (err) {
        throw cannotOpen(dir, err);
      }
      const old = current;
      adopt(next);
      // Retired after the answer to the call that asked for the switch (it runs on `old`).
      setImmediate(() => void old.dispose());
      const info = infoOf(next);
      fan('state.switched', info);
      return info;
    },
    async dispose() {
      disposed = true;
      unforward();
      listeners.clear();
      await current.dispose();
    },
  };
  adopt(start(opts.stateDir, opts.create));
  return host;
}
