/**
 * A value loaded on first use (a module the engine imports only when it is needed), shared by
 * every caller while it loads, then at hand synchronously. A failed load is not kept: the
 * next caller tries again — a cached rejection would fail every later call for the life of
 * the process (`cairn serve`) over one transient failure.
 */

export interface Lazy<T> {
  /** The value once loaded, else undefined (no load started). */
  now(): T | undefined;
  /** The value, loading it on the first call (and again after a failed load). */
  get(): Promise<T>;
}

/** A {@link Lazy} over `load`. */
export function lazy<T>(load: () => Promise<T>): Lazy<T> {
  let value: { v: T } | undefined;
  let pending: Promise<T> | undefined;
  return {
    now: () => value?.v,
    get: () =>
      value
        ? Promise.resolve(value.v)
        : (pending ??= load().then(
            (v) => {
              value = { v };
              return v;
            },
            (err: unknown) => {
              pending = undefined;
              throw err;
            },
          )),
  };
}
