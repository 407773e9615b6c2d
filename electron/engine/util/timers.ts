/**
 * Timers for the engine's scheduled background work (QMD's refresh schedule and its start-up
 * delay), behind an interface so tests can fire them by hand instead of waiting real seconds
 * (EngineDeps.timers). The real ones are unref'd: a one-shot CLI process never waits for a
 * refresh that is not due yet.
 */

/** A pending timer. */
export interface TimerHandle {
  /** Stop it; nothing happens when it already ran. */
  cancel(): void;
}

/** Sets timers; `fn` runs once, `ms` from now (by this source's clock). */
export interface Timers {
  set(fn: () => void, ms: number): TimerHandle;
}

/** setTimeout, unref'd. */
export const realTimers: Timers = {
  set(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref();
    return { cancel: () => clearTimeout(t) };
  },
};
