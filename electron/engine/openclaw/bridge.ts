/**
 * Cairn's side of the bridge the OpenClaw plugin (openclaw-plugin/) talks to: one JSON object
 * per line in, one per line out (`cairn openclaw-bridge`, electron/cli/commands/openclaw-bridge.ts,
 * runs the loop). A request is `{ id, op, ...args }`; the answer `{ id, ok: true, result }` or
 * `{ id, ok: false, error }`. Requests are answered as they finish, not in order, so one slow
 * search does not hold up a `get`.
 *
 * Ops: `hello` (version and state dir, after warming up the agent's index), `cancel` (stop
 * request `target`: the plugin's budget ran out), `recall` (recall.ts: the section for a prompt, logged),
 * `search` and `get` (the memory corpus supplement behind OpenClaw's memory_search/memory_get
 * `corpus=all`), `compaction` (append a compaction record, recall-log.ts), `read` (a read-only
 * contract call for the Cairn tab in OpenClaw's Control UI, tab-read.ts).
 */
import type { OpenClawCompactionRecord } from '../../../shared/types/openclaw-recall';
import type { EngineContext } from '../core/context';
import { getCited } from '../sessions/cited-get';
import { appendCompactionRecord } from './recall-log';
import { recallForPrompt, type RecallRequest } from './recall';
import type { Dispatcher } from '../rpc/dispatcher';
import { tabRead } from './tab-read';

/** The corpus name Cairn's results carry inside OpenClaw's memory_search. */
export const CAIRN_CORPUS = 'cairn';

/** A corpus-supplement search result, the shape OpenClaw's `MemoryCorpusSearchResult` takes. */
interface CorpusHit {
  corpus: string;
  path: string;
  score: number;
  snippet: string;
  startLine: number;
  endLine: number;
  citation: string;
  source: string;
  kind: string;
  provenanceLabel: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, what: string): string => {
  if (typeof v !== 'string') throw new Error(`${what} must be a string`);
  return v;
};
const optNum = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const agentOf = (req: Record<string, unknown>): string => (typeof req.agentId === 'string' && req.agentId ? req.agentId : 'main');

async function search(ctx: EngineContext, req: Record<string, unknown>): Promise<CorpusHit[]> {
  const maxResults = Math.min(Math.max(1, optNum(req.maxResults) ?? 6), 20);
  const res = await ctx.searchBackend().search(agentOf(req), { query: str(req.query, 'query'), maxResults });
  return res.results.map((r) => ({
    corpus: CAIRN_CORPUS,
    path: r.path,
    score: r.score,
    snippet: r.snippet,
    startLine: r.startLine,
    endLine: r.endLine,
    citation: r.citation,
    source: r.source,
    kind: r.source === 'sessions' ? 'session' : 'memory',
    provenanceLabel: 'Cairn',
  }));
}

async function get(ctx: EngineContext, req: Record<string, unknown>): Promise<{ corpus: string; path: string; content: string; fromLine: number; lineCount: number; provenanceLabel: string } | null> {
  const lookup = str(req.lookup, 'lookup').replace(/^cairn:/, '');
  const fromLine = optNum(req.fromLine);
  const lineCount = optNum(req.lineCount);
  try {
    const got = await getCited(ctx, agentOf(req), lookup, fromLine, lineCount);
    const lines = got.text.split('\n').length;
    return { corpus: CAIRN_CORPUS, path: got.path, content: got.text, fromLine: fromLine ?? 1, lineCount: lines, provenanceLabel: 'Cairn' };
  } catch (err) {
    // Not one of Cairn's paths: OpenClaw's own corpus or another supplement may have it.
    if ((err as { code?: string }).code === 'not_found' || (err as { code?: string }).code === 'bad_request') return null;
    throw err;
  }
}

function compaction(ctx: EngineContext, req: Record<string, unknown>): { file: string } {
  const r = req.record;
  if (!isRecord(r)) throw new Error('record must be an object');
  const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const record: OpenClawCompactionRecord = {
    v: 1,
    ts: typeof r.ts === 'string' ? r.ts : ctx.now().toISOString(),
    agentId: typeof r.agentId === 'string' && r.agentId ? r.agentId : 'main',
    sessionId: str(r.sessionId, 'record.sessionId'),
    ...(typeof r.sessionKey === 'string' && r.sessionKey ? { sessionKey: r.sessionKey } : {}),
    tokensBefore: num(r.tokensBefore),
    tokensAfter: num(r.tokensAfter),
    flushRan: r.flushRan === true,
    ...(typeof r.flushAt === 'string' ? { flushAt: r.flushAt } : {}),
  };
  return { file: appendCompactionRecord(ctx, record) };
}

/** Answer one request (already parsed). Throws for a bad or failed request; the loop turns that into `ok: false`. */
export async function handleBridgeRequest(ctx: EngineContext, req: Record<string, unknown>, signal?: AbortSignal, dispatcher?: Dispatcher): Promise<unknown> {
  switch (req.op) {
    // The Cairn tab in OpenClaw's Control UI: one read-only contract call (tab-read.ts).
    case 'read':
      if (!dispatcher) throw new Error('this bridge has no engine dispatcher for reads');
      return await tabRead(dispatcher, req, signal);
    case 'hello': {
      // Warm up before saying ready: the first search syncs a missing or stale index and
      // loads the embedder, which the plugin's start-up budget covers, not a prompt's.
      if (typeof req.warm === 'string' && req.warm) {
        await ctx
          .searchBackend()
          .search(req.warm, { query: 'cairn warm-up', maxResults: 1, signal })
          .catch(() => undefined);
      }
      return { version: ctx.version, stateDir: ctx.stateDir, pid: process.pid };
    }
    case 'recall': {
      const r: RecallRequest = {
        agentId: agentOf(req),
        sessionId: str(req.sessionId, 'sessionId'),
        ...(typeof req.sessionKey === 'string' && req.sessionKey ? { sessionKey: req.sessionKey } : {}),
        message: str(req.message, 'message'),
        recent: Array.isArray(req.recent) ? req.recent.filter((t): t is string => typeof t === 'string') : [],
        inContext: typeof req.inContext === 'string' ? req.inContext : '',
        ...(typeof req.skip === 'string' && req.skip ? { skip: req.skip } : {}),
        budgetMs: optNum(req.budgetMs) ?? 300,
        maxTokens: optNum(req.maxTokens) ?? 600,
        minScore: optNum(req.minScore) ?? 0.1,
        ...(optNum(req.maxHits) !== undefined ? { maxHits: optNum(req.maxHits) } : {}),
      };
      const res = await recallForPrompt(ctx, r, signal);
      return { context: res.context, outcome: res.entry.outcome, reason: res.entry.reason, tookMs: res.entry.tookMs, hits: res.entry.hits.length };
    }
    case 'search':
      return await search(ctx, req);
    case 'get':
      return await get(ctx, req);
    case 'compaction':
      return compaction(ctx, req);
    default:
      throw new Error(`unknown op ${JSON.stringify(req.op)}`);
  }
}

/**
 * Serve the bridge: read requests from `lines`, write each answer with `write`. Resolves when
 * the input ends (OpenClaw's process closed the pipe or exited).
 */
export async function serveBridge(ctx: EngineContext, lines: AsyncIterable<string>, write: (line: string) => void, dispatcher?: Dispatcher): Promise<void> {
  const pending = new Set<Promise<void>>();
  const running = new Map<unknown, AbortController>();
  for await (const line of lines) {
    if (!line.trim()) continue;
    let req: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(line);
      if (!isRecord(parsed)) throw new Error('a request must be a JSON object');
      req = parsed;
    } catch (err) {
      write(JSON.stringify({ id: null, ok: false, error: `bad request line: ${(err as Error).message}` }));
      continue;
    }
    if (req.op === 'cancel') {
      running.get(req.target)?.abort();
      continue;
    }
    const ac = new AbortController();
    if (req.id !== undefined) running.set(req.id, ac);
    const p = handleBridgeRequest(ctx, req, ac.signal, dispatcher).then(
      (result) => write(JSON.stringify({ id: req.id ?? null, ok: true, result: result ?? null })),
      (err: unknown) => write(JSON.stringify({ id: req.id ?? null, ok: false, error: err instanceof Error ? err.message : String(err) })),
    );
    pending.add(p);
    void p.finally(() => {
      pending.delete(p);
      running.delete(req.id);
    });
  }
  // OpenClaw is gone: nobody waits for the answers, stop the work (a timed-out recall still logs).
  for (const ac of running.values()) ac.abort();
  await Promise.all(pending);
}
