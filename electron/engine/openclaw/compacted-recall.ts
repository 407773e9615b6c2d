/**
 * What a compaction dropped comes back: the recall before a prompt also
 * searches the current session's compacted part — no longer in the model's context, only its
 * summary is — and a line the compaction audit lists as lost (compaction/audit.ts: an
 * identifier, ask, TODO or decision no summary, flush or kept message holds) ranks as what it
 * is: something this very conversation said and the summary dropped. It works when session
 * search is off (it reads the transcript, not the index) and for both session stores (JSONL,
 * OpenClaw's SQLite store: sessions/resolve.ts); `cairn.recall.compacted: false` turns it off.
 *
 * Cheap enough for a 300 ms recall: the audit and the rendered lines are made once per
 * compaction (keyed by the compaction and the part it replaced, which later appends never
 * change) and kept per session. A JSONL transcript grows by a turn between two prompts; when
 * what was appended since (read from the last size on) holds no compaction and no branch, the
 * kept lines still stand and nothing is parsed again. OpenClaw's SQLite store has no such
 * tail: its kept lines serve the prompt and are re-read after it, at most once a minute, and at
 * once when the plugin reports a compaction. Otherwise the transcript comes from the store's
 * cache (re-read when its size/mtime or database stamp changed). A query looks its words up in
 * the lines' postings. What is slow the first time (a big transcript's parse, the audit) is not
 * cut off by the prompt's budget: the prompt goes on without it and the next one finds it ready.
 */
import fs from 'node:fs';
import type { SearchResult } from '../../../shared/types/search';
import type { ContextSlot, EngineContext } from '../core/context';
import { auditSession } from '../sessions/audit';
import { loadSoftly } from '../sessions/load-soft';
import { resolveSession, type ResolvedSession } from '../sessions/resolve';
import type { Transcript } from '../transcript/types';
import { compactedLines, compactedPart, pickCompacted, type CompactedLines, type CompactedPart, type LostSpec } from './compacted-lines';

/** Sessions whose prepared lines are kept (the sessions an OpenClaw gateway is talking in). */
const KEEP_SESSIONS = 16;
/** Share of the prompt's budget this may wait for a first parse or audit (the search needs the rest). */
const WAIT_SHARE = 0.6;

/**
 * OpenClaw's SQLite store has no append-only tail to read: its session's stamp changes every
 * turn and a re-read costs ~17 ms per 1,000 events (docs/benchmarks.md, "OpenClaw session
 * store"). Its kept lines serve the prompt, and are re-read after it at most this often — and
 * at once when the plugin reports a compaction (warmCompactedRecall).
 */
const SQLITE_REFRESH_MS = 60_000;
/** A tail bigger than this is parsed with the whole transcript instead (it is not one turn). */
const TAIL_MAX_BYTES = 4 * 1024 * 1024;

interface Prepared {
  key: string;
  lines: Promise<CompactedLines>;
  /** When the lines were made (`Date.now()`), and whether a re-read after a prompt is under way. */
  madeAt: number;
  refreshing?: boolean;
  /**
   * The JSONL file the lines were made from, its inode, the size up to which it is known to
   * hold no later compaction or branch, and the id of its last entry; undefined for a store
   * that is not a JSONL file, or a file whose last line was torn when read.
   */
  grown?: { file: string; ino: number; size: number; lastId: string | undefined };
}

const preparedSlot: ContextSlot<Map<string, Prepared>> = { name: 'compacted-part recall cache', create: () => new Map() };

/** `p`'s value, or undefined once `signal` fires or `ms` pass (`p` itself goes on). */
function within<T>(p: Promise<T>, signal: AbortSignal | undefined, ms: number | undefined): Promise<T | undefined> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(undefined);
    let timer: NodeJS.Timeout | undefined;
    const done = (v: T | undefined) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', gaveUp);
      resolve(v);
    };
    const gaveUp = () => done(undefined);
    signal?.addEventListener('abort', gaveUp, { once: true });
    if (ms !== undefined) timer = setTimeout(gaveUp, Math.max(0, ms)).unref();
    p.then(done, gaveUp);
  });
}

/** What the audit of `s` lists as lost, over all its compactions (nothing when it cannot be audited). */
async function lostOf(ctx: EngineContext, s: ResolvedSession): Promise<LostSpec> {
  try {
    const audit = await auditSession(ctx, s.sessionId, s.agentId);
    const lines = new Set<number>();
    const identifiers: string[] = [];
    for (const c of audit.compactions) {
      for (const i of c.lost.identifiers) identifiers.push(i.value);
      for (const item of [...c.lost.asks, ...c.lost.todos, ...c.lost.decisions]) lines.add(item.at.line);
    }
    return { lines, identifiers };
  } catch {
    // The lines still answer; they rank as any compacted line.
    return { lines: new Set(), identifiers: [] };
  }
}

const cacheId = (s: ResolvedSession) => `${s.agentId}\0${s.sessionId}`;

/** Keep `held` as the most recently used (the oldest session is the one dropped). */
function touch(cache: Map<string, Prepared>, id: string, held: Prepared): void {
  cache.delete(id);
  cache.set(id, held);
  while (cache.size > KEEP_SESSIONS) cache.delete(cache.keys().next().value as string);
}

/**
 * True when the JSONL file `held` was made from has only grown since, by entries that
 * continue its branch without a compaction (then its compacted part is unchanged); advances
 * `held.grown` past them. Anything else — a rewrite (new inode), a shrink, a compaction, a
 * branch, an unreadable line, a tail too big — is false: parse it whole.
 */
function onlyTurnsAppended(held: Prepared, file: string): boolean {
  const g = held.grown;
  if (!g || g.file !== file) return false;
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return false;
  }
  if (st.ino !== g.ino || st.size < g.size || st.size - g.size > TAIL_MAX_BYTES) return false;
  if (st.size === g.size) return true;
  const buf = Buffer.alloc(st.size - g.size);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, buf, 0, buf.length, g.size);
  } finally {
    fs.closeSync(fd);
  }
  const end = buf.lastIndexOf(0x0a);
  if (end < 0) return true; // a line still being written: nothing complete was added
  let lastId = g.lastId;
  for (const line of buf.subarray(0, end).toString('utf8').split('\n')) {
    if (!line.trim()) continue;
    let e: { type?: unknown; id?: unknown; parentId?: unknown };
    try {
      e = JSON.parse(line) as typeof e;
    } catch {
      return false;
    }
    if (e.type === 'compaction' || (typeof e.parentId === 'string' && e.parentId !== lastId)) return false;
    if (typeof e.id === 'string') lastId = e.id;
  }
  held.grown = { ...g, size: g.size + end + 1, lastId };
  return true;
}

/**
 * The compacted part's lines of `s`, made once per compaction and kept — none for a session
 * never compacted (kept too: most sessions are, and their next turn need not be parsed).
 */
function preparedLines(ctx: EngineContext, s: ResolvedSession, t: Transcript, part: CompactedPart | undefined, ino: number | undefined): Promise<CompactedLines> {
  const cache = ctx.member(preparedSlot);
  const id = cacheId(s);
  const held = cache.get(id);
  const grown = ino !== undefined && t.endsWithNewline ? { file: s.file, ino, size: t.bytes, lastId: t.entries.at(-1)?.id } : undefined;
  const key = part?.key ?? '';
  if (held?.key === key) {
    held.grown = grown;
    held.madeAt = Date.now();
    touch(cache, id, held);
    return held.lines;
  }
  const lines = part ? lostOf(ctx, s).then((lost) => compactedLines(t, part, lost)) : Promise.resolve({ lines: [], postings: new Map() });
  touch(cache, id, { key, lines, madeAt: Date.now(), ...(grown ? { grown } : {}) });
  return lines;
}

/** The inode of a JSONL session's file, read before its transcript (so the two agree or the tail check fails safe). */
function inodeOf(s: ResolvedSession): number | undefined {
  if (s.store !== 'jsonl') return undefined;
  try {
    return fs.statSync(s.file).ino;
  } catch {
    return undefined;
  }
}

/** Read `s`'s transcript and make (or confirm) its compacted lines. */
async function prepare(ctx: EngineContext, s: ResolvedSession, signal: AbortSignal | undefined, left: () => number | undefined): Promise<CompactedLines | undefined> {
  const ino = inodeOf(s);
  const t = await within(loadSoftly(ctx, s), signal, left());
  return t && within(preparedLines(ctx, s, t, compactedPart(t), ino), signal, left());
}

/** Re-read `s` after this prompt (one re-read at a time): its kept lines serve until then. */
function refreshLater(ctx: EngineContext, s: ResolvedSession, held: Prepared): void {
  if (held.refreshing) return;
  held.refreshing = true;
  setImmediate(() => {
    prepare(ctx, s, undefined, () => undefined)
      .catch(() => undefined)
      .finally(() => (held.refreshing = false));
  });
}

/**
 * The compacted lines of `sessionId`, or undefined when it cannot be read or they are not
 * ready within the wait. `fresh`: read the store now even when lines are kept (a compaction
 * was reported).
 */
async function linesOf(ctx: EngineContext, agentId: string, sessionId: string, signal?: AbortSignal, budgetMs?: number, fresh = false): Promise<{ sessionId: string; lines: CompactedLines } | undefined> {
  const started = Date.now();
  const left = () => (budgetMs === undefined ? undefined : budgetMs * WAIT_SHARE - (Date.now() - started));
  const s = resolveSession(ctx, sessionId, agentId);
  const held = fresh ? undefined : ctx.member(preparedSlot).get(cacheId(s));
  let lines: CompactedLines | undefined;
  if (held && s.store === 'jsonl' && onlyTurnsAppended(held, s.file)) {
    lines = await within(held.lines, signal, left());
  } else if (held && s.store !== 'jsonl') {
    // Lines compacted once stay out of the context: the kept ones are right, at worst not the newest.
    if (Date.now() - held.madeAt > SQLITE_REFRESH_MS) refreshLater(ctx, s, held);
    lines = await within(held.lines, signal, left());
  } else {
    lines = await prepare(ctx, s, signal, left);
  }
  return lines && { sessionId: s.sessionId, lines };
}

/**
 * Hits from the compacted part of `sessionId` for `query` (none when the session is unknown,
 * never compacted, or `cairn.recall.compacted` is off). Never throws. `signal` is the prompt's
 * budget running out; `budgetMs`, when given, bounds the wait for a first parse or audit to
 * a share of it so the memory search's hits still make the prompt.
 */
export async function compactedRecall(ctx: EngineContext, agentId: string, sessionId: string, query: string, signal?: AbortSignal, budgetMs?: number): Promise<SearchResult[]> {
  try {
    if (!ctx.config().config.cairn.recall.compacted || !query) return [];
    const got = await linesOf(ctx, agentId, sessionId, signal, budgetMs);
    return got ? pickCompacted(got.lines, query, got.sessionId) : [];
  } catch {
    // Not a session Cairn can read (not found, an unreadable store): recall goes on without it.
    return [];
  }
}

/**
 * Prepare the compacted part of `sessionId` now, off any prompt: OpenClaw reported a
 * compaction (the bridge's `compaction` op), so the next prompt — the first one that may ask
 * about what was dropped — finds the parse and the audit done.
 */
export function warmCompactedRecall(ctx: EngineContext, agentId: string, sessionId: string): void {
  if (!ctx.config().config.cairn.recall.compacted) return;
  setImmediate(() => {
    linesOf(ctx, agentId, sessionId, undefined, undefined, true).catch(() => undefined);
  });
}

/**
 * `results` (the search's order kept) with `compacted` put in by score — before the first
 * result scoring less, so on a tie the line this conversation said comes first — and
 * without the session hits that cite one of its lines again (the pick is the exact line).
 */
export function withCompacted(results: readonly SearchResult[], compacted: readonly SearchResult[]): SearchResult[] {
  if (compacted.length === 0) return [...results];
  const cites = (r: SearchResult, c: SearchResult) => r.path === c.path && (c.lines ?? []).some((l) => l.line >= r.startLine && l.line <= r.endLine);
  const out = results.filter((r) => !compacted.some((c) => cites(r, c)));
  for (const c of compacted) {
    const at = out.findIndex((r) => r.score < c.score);
    out.splice(at < 0 ? out.length : at, 0, c);
  }
  return out;
}
