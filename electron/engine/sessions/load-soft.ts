/**
 * Reading a big JSONL transcript without holding the engine thread: the whole
 * parse of a 100 MB file takes 1–4 s, and a synchronous one stops every other call (the
 * session list, Status, search) for that long. Files of 8 MB or more are read
 * asynchronously and parsed in slices that yield to the event loop, once — callers during
 * the parse wait for the same promise — and the result goes into the store's cache, where
 * the store's own (synchronous) load finds it. Smaller files and other stores load as usual.
 * A caller's AbortSignal ends its own wait; the parse itself stops once every caller waiting
 * for it has gone (one who cancels must not fail the others sharing the parse).
 */
import fs from 'node:fs';
import type { ContextSlot, EngineContext } from '../core/context';
import { abortError } from '../util/abort';
import { parseTranscriptSliced } from '../transcript/parse';
import type { Transcript } from '../transcript/types';
import { storeCaches } from './store/cache';
import type { SessionStoreKind } from './store';

/** At or above this, a transcript is parsed in slices (below, one parse is quick). */
export const SOFT_LOAD_BYTES = 8 * 1024 * 1024;

/** A parse under way: its callers share it; `stop` ends it when the last of them cancelled. */
interface Inflight {
  stamp: string;
  done: Promise<Transcript>;
  /** Callers still waiting (one without a signal waits to the end). */
  waiters: number;
  stop: AbortController;
}

const inflightSlot: ContextSlot<Map<string, Inflight>> = { name: 'transcripts being parsed', create: () => new Map() };

/** What a soft load needs: where the session is kept and the store's own load. */
export interface Loadable {
  store: SessionStoreKind;
  /** The JSONL file (the store's location). */
  file: string;
  load(): Transcript;
}

const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));
const stampOf = (st: fs.Stats) => `${st.size}:${st.mtimeMs}`;

/**
 * The parsed transcript of `s`, read without blocking the engine thread when it is big.
 * `signal` cancels this caller's wait (an AbortError naming the file).
 */
export async function loadSoftly(ctx: EngineContext, s: Loadable, signal?: AbortSignal): Promise<Transcript> {
  const cancelled = () => abortError(signal, `reading ${s.file} cancelled`);
  if (signal?.aborted) throw cancelled();
  if (s.store !== 'jsonl') return s.load();
  let st: fs.Stats;
  try {
    st = fs.statSync(s.file);
  } catch {
    return s.load(); // gone: the store's load says so in its words
  }
  const stamp = stampOf(st);
  if (st.size < SOFT_LOAD_BYTES || storeCaches(ctx).transcript(s.file, stamp)) return s.load();
  const inflight = ctx.member(inflightSlot);
  let run = inflight.get(s.file);
  if (run?.stamp !== stamp) {
    const stop = new AbortController();
    const between = async () => {
      await yieldNow();
      stop.signal.throwIfAborted();
    };
    const done = (async () => {
      const buf = await fs.promises.readFile(s.file, { signal: stop.signal });
      await between();
      const t = await parseTranscriptSliced(s.file, buf.toString('utf8'), buf.length, between);
      // Kept only if the file is still what was read (a writer may have appended meanwhile).
      const after = fs.statSync(s.file);
      if (after.size === buf.length && stampOf(after) === stamp) storeCaches(ctx).keep(s.file, stamp, t, buf.length);
      return t;
    })();
    const started: Inflight = { stamp, done, waiters: 0, stop };
    run = started;
    inflight.set(s.file, started);
    // Settled either way, it is no longer in flight (a stopped one must not be joined).
    done.then(
      () => inflight.get(s.file) === started && inflight.delete(s.file),
      () => inflight.get(s.file) === started && inflight.delete(s.file),
    );
  }
  const mine = run;
  mine.waiters++;
  if (!signal) return mine.done.finally(() => mine.waiters--);
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      // The last one waiting: stop the read and the slices (and let a new caller start afresh).
      if (--mine.waiters === 0) {
        mine.stop.abort();
        if (inflight.get(s.file) === mine) inflight.delete(s.file);
      }
      reject(cancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([mine.done, aborted]);
  } finally {
    if (!signal.aborted) mine.waiters--;
    signal.removeEventListener('abort', onAbort);
  }
}
