/**
 * Cairn's side of the bridge the OpenClaw plugin (openclaw-plugin/) talks to: one JSON object
 * per line in, one per line out (`cairn openclaw-bridge`, electron/cli/commands/openclaw-bridge.ts,
 * runs the loop). The messages are described once, in openclaw-plugin/wire.js: their types
 * (imported here), the check each request line passes (`checkRequest`) and the framing
 * (U+2028/U+2029 escaped: OpenClaw's Node 24 readline would end a line there). A request is
 * `{ id, op, ...args }`; the answer `{ id, ok: true, result }` or `{ id, ok: false, error }`. Requests are answered as they finish, not in order, so one slow
 * search does not hold up a `get`.
 *
 * Ops: `hello` (version and state dir, at once; the agent's index warms up after it), `cancel` (stop
 * request `target`: the plugin's budget ran out), `recall` (recall.ts: the section for a prompt, logged),
 * `search` and `get` (the memory corpus supplement behind OpenClaw's memory_search/memory_get
 * `corpus=all`), `compaction` (append a compaction record, recall-log.ts), `read` (a read-only
 * contract call for the Cairn tab in OpenClaw's Control UI, tab-read.ts).
 */
import type { OpenClawCompactionRecord } from '../../../shared/types/openclaw-recall';
import type { EngineContext } from '../core/context';
import { getCited } from '../sessions/cited-get';
import { checkRequest, encodeLine } from '../../../openclaw-plugin/wire.js';
import type { AnsweredRequest, BridgeAnswer, BridgeResults, CompactionRequest, CorpusHit, GetRequest, GetResult, RecallWireRequest, SearchRequest } from '../../../openclaw-plugin/wire.js';
import { appendCompactionRecord } from './recall-log';
import { warmCompactedRecall } from './compacted-recall';
import { recallForPrompt, type RecallRequest } from './recall';
import { readableText } from '../search/lines';
import type { Dispatcher } from '../rpc/dispatcher';
import { tabRead } from './tab-read';

/** Where the bridge may hold a request before its work (EngineDeps.openclawBridgePause). */
export type BridgePausePoint = 'recall' | 'search' | 'get' | 'warm-up';

/** What the bridge is given besides the engine: its dispatcher for the tab's reads, and test hooks, passed in (never read from the environment). */
export interface BridgeHooks {
  /** Hold a request before its work (tests: a slow Cairn); resolves at once when `signal` aborts. */
  pause?: (at: BridgePausePoint, signal: AbortSignal) => Promise<void>;
  /** The engine's dispatcher, for the Cairn tab's `read` op (tab-read.ts); without it, reads are refused. */
  dispatcher?: Dispatcher;
}

/** The corpus name Cairn's results carry inside OpenClaw's memory_search. */
export const CAIRN_CORPUS = 'cairn';

const agentOf = (req: { agentId?: string }): string => req.agentId || 'main';

/** A corpus search; `signal`: the plugin's `cancel` (its budget ran out) stops it. */
async function search(ctx: EngineContext, req: SearchRequest, signal: AbortSignal): Promise<CorpusHit[]> {
  const maxResults = Math.min(Math.max(1, req.maxResults ?? 6), 20);
  const res = await ctx.searchBackend().search(agentOf(req), { query: req.query, maxResults, signal });
  return res.results.map((r) => ({
    corpus: CAIRN_CORPUS,
    path: r.path,
    score: r.score,
    // What OpenClaw's memory_search shows the model: the lines that answer, numbered (L14: …).
    snippet: readableText(r),
    startLine: r.startLine,
    endLine: r.endLine,
    citation: r.citation,
    source: r.source,
    kind: r.source === 'sessions' ? 'session' : 'memory',
    provenanceLabel: 'Cairn',
  }));
}

async function get(ctx: EngineContext, req: GetRequest): Promise<GetResult | null> {
  const lookup = req.lookup.replace(/^cairn:/, '');
  const { fromLine, lineCount } = req;
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

function compaction(ctx: EngineContext, req: CompactionRequest): { file: string } {
  const r = req.record;
  const record: OpenClawCompactionRecord = {
    v: 1,
    ts: r.ts ?? ctx.now().toISOString(),
    agentId: r.agentId || 'main',
    sessionId: r.sessionId,
    ...(r.sessionKey ? { sessionKey: r.sessionKey } : {}),
    tokensBefore: r.tokensBefore ?? null,
    tokensAfter: r.tokensAfter ?? null,
    flushRan: r.flushRan === true,
    ...(r.flushAt !== undefined ? { flushAt: r.flushAt } : {}),
  };
  const file = appendCompactionRecord(ctx, record);
  warmCompactedRecall(ctx, record.agentId, record.sessionId);
  return { file };
}

/**
 * Warm the agent's index up: the first search syncs a missing or stale index (a whole rebuild
 * after an upgrade) and loads the embedder. In the background, after `hello` answered: a
 * prompt meanwhile waits its own budget, not the warm-up's length; `signal` ends it with the bridge.
 */
async function warmUp(ctx: EngineContext, agentId: string, hooks: BridgeHooks, signal: AbortSignal): Promise<void> {
  await hooks.pause?.('warm-up', signal);
  if (signal.aborted) return;
  await ctx
    .searchBackend()
    .search(agentId, { query: 'cairn warm-up', maxResults: 1, signal })
    .then(() => undefined, () => undefined);
}

/** What one served bridge gives each request besides the engine. */
interface BridgeSession {
  hooks: BridgeHooks;
  /** Start the warm-up of an agent's index in the background. */
  warm(agentId: string): void;
}

/** The recall a `recall` request asks for, with the plugin's defaults for what it left out. */
const recallOf = (req: RecallWireRequest): RecallRequest => ({
  agentId: agentOf(req),
  sessionId: req.sessionId,
  ...(req.sessionKey ? { sessionKey: req.sessionKey } : {}),
  message: req.message,
  recent: req.recent ?? [],
  inContext: req.inContext ?? '',
  ...(req.skip ? { skip: req.skip } : {}),
  budgetMs: req.budgetMs ?? 300,
  maxTokens: req.maxTokens ?? 600,
  minScore: req.minScore ?? 0.1,
  ...(req.maxHits !== undefined ? { maxHits: req.maxHits } : {}),
});

/** Answer one request (already checked). Throws for a failed request; the loop turns that into `ok: false`. */
async function handleBridgeRequest(ctx: EngineContext, req: AnsweredRequest, signal: AbortSignal, session: BridgeSession): Promise<BridgeResults[AnsweredRequest['op']]> {
  const { hooks } = session;
  if ((req.op === 'recall' || req.op === 'search' || req.op === 'get') && hooks.pause) await hooks.pause(req.op, signal);
  switch (req.op) {
    // The Cairn tab in OpenClaw's Control UI: one read-only contract call (tab-read.ts).
    case 'read':
      if (!hooks.dispatcher) throw new Error('this bridge has no engine dispatcher for reads');
      return await tabRead(hooks.dispatcher, req, signal);
    case 'hello':
      // Ready at once: the warm-up runs after the answer (see warmUp).
      if (req.warm) session.warm(req.warm);
      return { version: ctx.version, stateDir: ctx.stateDir, pid: process.pid };
    case 'recall': {
      const res = await recallForPrompt(ctx, recallOf(req), signal);
      return { context: res.context, outcome: res.entry.outcome, ...(res.entry.reason !== undefined ? { reason: res.entry.reason } : {}), tookMs: res.entry.tookMs, hits: res.entry.hits.length };
    }
    case 'search':
      return await search(ctx, req, signal);
    case 'get':
      return await get(ctx, req);
    case 'compaction':
      return compaction(ctx, req);
  }
}

/**
 * Serve the bridge: read requests from `lines`, write each answer with `write` (one line,
 * '\n' included). Resolves when the input ends (OpenClaw's process closed the pipe or exited).
 */
export async function serveBridge(ctx: EngineContext, lines: AsyncIterable<string>, write: (line: string) => void, hooks: BridgeHooks = {}): Promise<void> {
  const pending = new Set<Promise<void>>();
  const running = new Map<number, AbortController>();
  const track = (p: Promise<void>): void => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };
  const closing = new AbortController();
  const session: BridgeSession = { hooks, warm: (agentId) => track(warmUp(ctx, agentId, hooks, closing.signal)) };
  const answer = (a: BridgeAnswer): void => write(encodeLine(a));
  for await (const line of lines) {
    if (!line.trim()) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (err) {
      answer({ id: null, ok: false, error: `bad request line: ${(err as Error).message}` });
      continue;
    }
    const checked = checkRequest(parsed);
    if (!checked.ok) {
      answer({ id: checked.id, ok: false, error: `bad request: ${checked.error}` });
      continue;
    }
    const { id, request: req } = checked;
    if (req.op === 'cancel') {
      running.get(req.target)?.abort();
      continue;
    }
    const ac = new AbortController();
    if (id !== null) running.set(id, ac);
    const p = handleBridgeRequest(ctx, req, ac.signal, session).then(
      (result) => answer({ id, ok: true, result: result ?? null }),
      (err: unknown) => answer({ id, ok: false, error: err instanceof Error ? err.message : String(err) }),
    );
    track(p.finally(() => id !== null && running.delete(id)));
  }
  // OpenClaw is gone: nobody waits for the answers, stop the work (a timed-out recall still logs).
  closing.abort();
  for (const ac of running.values()) ac.abort();
  await Promise.all(pending);
}
