/**
 * An engine context for Cairn's recall path (openclaw/recall.ts `recallForPrompt`) over one
 * open index, for benchmarks: the engine's real search of the index, the plugin's defaults, and
 * no recall log (writing it is best-effort in recall.ts: the log's failure is ignored there).
 */
import type { EngineContext } from '../../electron/engine/core/context';
import type { MemoryIndex } from '../../electron/engine/index/memory-index';
import { searchIndex } from '../../electron/engine/search/index-search';
import type { RecallRequest } from '../../electron/engine/openclaw/recall';

/** The OpenClaw plugin's defaults (openclaw-plugin/index.js): 600 tokens, score floor 0.1, 6 hits. */
export const PLUGIN_DEFAULTS = { maxTokens: 600, minScore: 0.1, maxHits: 6 };

/** A recall request for `message` with the plugin's defaults (a generous time budget: benchmarks time it themselves). */
export function recallRequest(message: string, maxTokens = PLUGIN_DEFAULTS.maxTokens): RecallRequest {
  return { agentId: 'main', sessionId: 'bench', message, budgetMs: 600_000, maxTokens, minScore: PLUGIN_DEFAULTS.minScore, maxHits: PLUGIN_DEFAULTS.maxHits };
}

/** The context `recallForPrompt` needs, over `idx`. */
export function recallContext(idx: MemoryIndex): EngineContext {
  const ctx = {
    now: () => new Date(),
    env: () => ({}),
    searchBackend: () => ({ search: (_agent: string, req: Parameters<typeof searchIndex>[1]) => searchIndex(idx, req) }),
  };
  return ctx as unknown as EngineContext;
}
