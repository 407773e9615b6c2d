// @ts-check
/**
 * Cairn's plugin for OpenClaw (2026.9): what `cairn connect openclaw` loads through
 * `plugins.load.paths`. It switches nothing of OpenClaw's off; it adds three things:
 *
 * 1. Recall before every user prompt (`before_prompt_build`): Cairn's best hits for the
 *    message, with citations, in a `<relevant-memories>` section added to the model's copy of
 *    the prompt only (OpenClaw keeps it out of the transcript, so dreaming never learns it
 *    back). Heartbeat, cron, memory-flush
 *    and sub-agent turns are skipped. A prompt waits at most `recallBudgetMs` (default 300);
 *    then, or when Cairn is absent or broken, the turn goes on without recall and one warning
 *    per cause says why. Cairn's side logs every prompt's recall in its own data dir.
 * 2. Cairn's memory and sessions as a memory corpus supplement: OpenClaw's own
 *    `memory_search`/`memory_get` with `corpus=all` reach Cairn, while memory-core keeps its
 *    recall store (dreaming) and prompt section.
 * 3. A record of each compaction (`before_compaction`/`after_compaction`), for Cairn's audit.
 * 4. Cairn's window as a read-only tab in OpenClaw's Control UI (tab.js).
 *
 * Plain JavaScript with no dependency and nothing native: Cairn itself runs in a child
 * process under the Node that installed it (bridge-client.js).
 */
import { CairnBridge } from './bridge-client.js';
import { recallSkipReason, recentTexts, textOf } from './turn.js';
import { registerCairnTab } from './tab.js';

/**
 * @typedef {object} CairnPluginConfig
 * @property {string} stateDir
 * @property {string} [dataDir]
 * @property {string} node
 * @property {string} bin
 * @property {Record<string, string>} [env]
 * @property {boolean} [autoRecall]
 * @property {boolean} [corpus]
 * @property {number} [recallBudgetMs]
 * @property {number} [startupBudgetMs]
 * @property {number} [recallTokens]
 * @property {number} [minScore]
 * @property {number} [maxHits]
 */

/**
 * A budget: the test/operator override in the environment, else the config, else the default.
 * @param {string} envName
 * @param {number | undefined} configured
 * @param {number} fallback
 */
function budget(envName, configured, fallback) {
  const v = Number(process.env[envName]);
  if (Number.isFinite(v) && v > 0) return v;
  return typeof configured === 'number' && configured > 0 ? configured : fallback;
}

const BRIDGES = Symbol.for('cairn.openclaw-plugin.bridges');

/**
 * The one bridge of this OpenClaw process for these options. OpenClaw registers a plugin more
 * than once per process (discovery and full loads, a config reload replacing the instance),
 * so the bridge lives on `globalThis`, not in one registration; a bridge for other options of
 * the same state dir (Cairn moved, connect ran again) is stopped.
 * @param {import('./bridge-client.js').BridgeOptions} opts
 * @returns {CairnBridge}
 */
function sharedBridge(opts) {
  const g = /** @type {Record<symbol, Map<string, CairnBridge> | undefined>} */ (/** @type {unknown} */ (globalThis));
  const bridges = (g[BRIDGES] ??= new Map());
  const key = JSON.stringify(opts);
  let bridge = bridges.get(key);
  if (!bridge) {
    for (const [k, b] of bridges) {
      if (b.opts.stateDir === opts.stateDir) {
        b.dispose();
        bridges.delete(k);
      }
    }
    bridge = new CairnBridge(opts);
    bridges.set(key, bridge);
  }
  return bridge;
}

/** Corpus-supplement calls (a tool call the model made) may wait longer than a prompt's recall. */
const CORPUS_BUDGET_MS = 10_000;

/**
 * @param {any} api OpenClaw's plugin API
 */
function register(api) {
  /** @type {CairnPluginConfig} */
  const cfg = api.pluginConfig ?? {};
  const log = api.logger ?? console;
  if (!cfg.node || !cfg.bin || !cfg.stateDir) {
    log.warn?.('cairn: plugins.entries.cairn.config needs node, bin and stateDir (run "cairn connect openclaw" again); Cairn is off');
    return;
  }
  // A CLI-metadata load only lists commands. Every other load registers the hooks: they
  // cost nothing until a prompt needs Cairn (the bridge starts on first use).
  if (api.registrationMode === 'cli-metadata') return;
  const bridge = sharedBridge({ node: cfg.node, bin: cfg.bin, stateDir: cfg.stateDir, ...(cfg.dataDir ? { dataDir: cfg.dataDir } : {}), ...(cfg.env ? { env: cfg.env } : {}) });
  // Cairn's window as a read-only tab in OpenClaw's Control UI (tab.js).
  registerCairnTab(api, bridge, cfg.bin, log);
  const recallBudgetMs = budget('CAIRN_OPENCLAW_RECALL_BUDGET_MS', cfg.recallBudgetMs, 300);
  const startupBudgetMs = budget('CAIRN_OPENCLAW_STARTUP_BUDGET_MS', cfg.startupBudgetMs, 2000);
  /** @type {Set<string>} */
  const warned = new Set();
  /**
   * One warning per cause per OpenClaw process: a broken Cairn must not flood the log.
   * @param {string} key
   * @param {string} message
   */
  const warnOnce = (key, message) => {
    if (warned.has(key)) return;
    warned.add(key);
    log.warn?.(message);
  };
  /**
   * @param {string} what
   * @param {unknown} err
   */
  const explain = (what, err) => {
    // By name, not instanceof: the shared bridge may come from another load of this module.
    const kind = err instanceof Error && err.name === 'BridgeError' ? /** @type {import('./bridge-client.js').BridgeError} */ (err).kind : '';
    const why = err instanceof Error ? err.message : String(err);
    if (kind === 'timeout') {
      warnOnce(`timeout:${what}`, `cairn: ${what} went on without Cairn: ${why} (budget: plugins.entries.cairn.config.${what === 'recall' ? 'recallBudgetMs' : 'startupBudgetMs'})`);
    } else if (kind === 'unavailable') {
      warnOnce(`unavailable:${what}`, `cairn: ${what} went on without Cairn, which is not running: ${why}. Check "cairn doctor" and run "cairn connect openclaw" again if Cairn moved.`);
    } else {
      warnOnce(`error:${what}`, `cairn: ${what} went on without Cairn: ${why}`);
    }
  };
  /** @type {Map<string, string>} session → time of its last memory-flush turn (ISO) */
  const flushes = new Map();

  api.on('before_prompt_build', async (/** @type {any} */ event, /** @type {any} */ ctx) => {
    const sessionId = ctx?.sessionId || ctx?.sessionKey || 'unknown';
    const agentId = ctx?.agentId || 'main';
    // A memory-flush turn (OpenClaw's pre-compaction flush): remembered for the compaction record.
    if (ctx?.trigger === 'memory') flushes.set(sessionId, new Date().toISOString());
    if (cfg.autoRecall === false) return undefined;
    const message = typeof event?.currentUserMessage === 'string' ? event.currentUserMessage : textOf(event?.prompt);
    const skip = recallSkipReason(ctx, message);
    if (skip) {
      // Logged on Cairn's side only when Cairn already runs: a heartbeat never starts it.
      if (bridge.ready) bridge.send('recall', { agentId, sessionId, sessionKey: ctx?.sessionKey, message, skip, budgetMs: recallBudgetMs, maxTokens: 0, minScore: 1 }, recallBudgetMs).catch(() => {});
      return undefined;
    }
    const messages = Array.isArray(event?.messages) ? event.messages : [];
    const args = {
      agentId,
      sessionId,
      ...(ctx?.sessionKey ? { sessionKey: ctx.sessionKey } : {}),
      message,
      recent: recentTexts(messages, 4),
      inContext: recentTexts(messages, 24).join('\n'),
      budgetMs: recallBudgetMs,
      maxTokens: cfg.recallTokens ?? 600,
      minScore: cfg.minScore ?? 0.1,
      maxHits: cfg.maxHits ?? 6,
    };
    try {
      const res = /** @type {{ context?: string }} */ (await bridge.request('recall', args, { budgetMs: recallBudgetMs, startupBudgetMs }));
      return res?.context ? { prependContext: res.context } : undefined;
    } catch (err) {
      explain('recall', err);
      return undefined;
    }
  });

  if (cfg.corpus !== false && typeof api.registerMemoryCorpusSupplement === 'function') registerCorpus(api, bridge, explain, startupBudgetMs);
  registerCompactionRecords(api, bridge, explain, flushes, startupBudgetMs);

  // A long-lived gateway starts Cairn before the first message, so no prompt waits for it.
  api.on('gateway_start', () => {
    bridge.start().catch((/** @type {unknown} */ err) => explain('start', err));
  });
  api.on('gateway_stop', () => bridge.dispose());
}

/**
 * Cairn's corpus behind OpenClaw's memory_search/memory_get `corpus=all`.
 * @param {any} api OpenClaw's plugin API
 * @param {CairnBridge} bridge
 * @param {(what: string, err: unknown) => void} explain
 * @param {number} startupBudgetMs
 */
function registerCorpus(api, bridge, explain, startupBudgetMs) {
  // Its own budget once Cairn runs; the start-up budget like a prompt's (the hello no longer waits for the warm-up).
  const budgets = { budgetMs: CORPUS_BUDGET_MS, startupBudgetMs };
  api.registerMemoryCorpusSupplement({
    /** @param {{ query: string, maxResults?: number, agentId?: string }} p */
    async search(p) {
      try {
        return /** @type {any[]} */ (await bridge.request('search', { query: p.query, maxResults: p.maxResults ?? 6, agentId: p.agentId || 'main' }, budgets));
      } catch (err) {
        explain('memory_search', err);
        throw err;
      }
    },
    /** @param {{ lookup: string, fromLine?: number, lineCount?: number, agentId?: string }} p */
    async get(p) {
      try {
        return /** @type {any} */ (await bridge.request('get', { lookup: p.lookup, fromLine: p.fromLine, lineCount: p.lineCount, agentId: p.agentId || 'main' }, budgets));
      } catch (err) {
        explain('memory_get', err);
        throw err;
      }
    },
  });
}

/**
 * A compaction record per OpenClaw compaction: its start, its end and whether a memory flush ran.
 * @param {any} api OpenClaw's plugin API
 * @param {CairnBridge} bridge
 * @param {(what: string, err: unknown) => void} explain
 * @param {Map<string, string>} flushes session → time of its last memory-flush turn (ISO)
 * @param {number} startupBudgetMs
 */
function registerCompactionRecords(api, bridge, explain, flushes, startupBudgetMs) {
  /** @type {Map<string, { tokens: number | null, at: string }>} session → its compaction's start */
  const compacting = new Map();
  api.on('before_compaction', (/** @type {any} */ event, /** @type {any} */ ctx) => {
    const sessionId = ctx?.sessionId || ctx?.sessionKey;
    if (sessionId) compacting.set(sessionId, { tokens: typeof event?.tokenCount === 'number' ? event.tokenCount : null, at: new Date().toISOString() });
  });
  api.on('after_compaction', async (/** @type {any} */ event, /** @type {any} */ ctx) => {
    const sessionId = ctx?.sessionId || ctx?.sessionKey;
    if (!sessionId) return;
    const start = compacting.get(sessionId);
    compacting.delete(sessionId);
    const flushAt = flushes.get(sessionId);
    flushes.delete(sessionId);
    const record = {
      ts: new Date().toISOString(),
      agentId: ctx?.agentId || 'main',
      sessionId,
      ...(ctx?.sessionKey ? { sessionKey: ctx.sessionKey } : {}),
      tokensBefore: start?.tokens ?? null,
      tokensAfter: typeof event?.tokenCount === 'number' ? event.tokenCount : null,
      flushRan: flushAt !== undefined,
      ...(flushAt ? { flushAt } : {}),
    };
    try {
      await bridge.request('compaction', { record }, { budgetMs: CORPUS_BUDGET_MS, startupBudgetMs: Math.max(startupBudgetMs, CORPUS_BUDGET_MS) });
    } catch (err) {
      explain('compaction record', err);
    }
  });
}

export default {
  id: 'cairn',
  name: 'Cairn',
  description: "Recall from Cairn before every prompt, Cairn's corpus behind memory_search/memory_get, compaction records",
  register,
};
