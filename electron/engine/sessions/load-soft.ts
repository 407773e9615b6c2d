/**
 * Reading a big JSONL transcript without holding the engine thread (issue 14.2): the whole
 * parse of a 100 MB file takes 1–4 s, and a synchronous one stops every other call (the
 * session list, Status, search) for that long. Files of 8 MB or more are read
 * asynchronously and parsed in slices that yield to the event loop, once — callers during
 * the parse wait for the same promise — and the result goes into the store's cache, where
 * the store's own (synchronous) load finds it. Smaller files and other stores load as usual.
 */
import fs from 'node:fs';
import type { ContextSlot, EngineContext } from '../context';
import { parseTranscriptSliced } from '../transcript/parse';
import type { Transcript } from '../transcript/types';
import { storeCaches } from './store/cache';
import type { SessionStoreKind } from './store';

/** At or above this, a transcript is parsed in slices (below, one parse is quick). */
export const SOFT_LOAD_BYTES = 8 * 1024 * 1024;

const inflightSlot: ContextSlot<Map<string, { stamp: string; done: Promise<Transcript> }>> = { name: 'transcripts being parsed', create: () => new Map() };

/** What a soft load needs: where the session is kept and the store's own load. */
export interface Loadable {
  store: SessionStoreKind;
  /** The JSONL file (the store's location). */
  file: string;
  load(): Transcript;
}

const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));
const stampOf = (st: fs.Stats) => `${st.size}:${st.mtimeMs}`;

/** The parsed transcript of `s`, read without blocking the engine thread when it is big. */
export async function loadSoftly(ctx: EngineContext, s: Loadable): Promise<Transcript> {
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
  const running = inflight.get(s.file);
  if (running?.stamp === stamp) return running.done;
  const done = (async () => {
    const buf = await fs.promises.readFile(s.file);
    await yieldNow();
    const t = await parseTranscriptSliced(s.file, buf.toString('utf8'), buf.length, yieldNow);
    // Kept only if the file is still what was read (a writer may have appended meanwhile).
    const after = fs.statSync(s.file);
    if (after.size === buf.length && stampOf(after) === stamp) storeCaches(ctx).keep(s.file, stamp, t, buf.length);
    return t;
  })();
  inflight.set(s.file, { stamp, done });
  try {
    return await done;
  } finally {
    if (inflight.get(s.file)?.done === done) inflight.delete(s.file);
  }
}
