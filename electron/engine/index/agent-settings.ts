/**
 * An agent's effective memorySearch settings and memory path roots, computed from the loaded
 * config alone. Kept apart from the registry (which loads SQLite, sqlite-vec and the embedder)
 * so that reading a memory file does not wait for the index modules to load.
 */
import type { EngineContext } from '../core/context';
import { MemorySearchSchema, type MemorySearchSettings } from '../config/schema';
import { deepMerge } from '../config/load';
import type { MemoryPathRoots } from './memory-paths';

/** The settings, plus why a per-agent override was ignored (for the caller to report once). */
export interface AgentMemorySettings {
  settings: MemorySearchSettings;
  invalidOverride?: string;
}

/**
 * `agents.defaults.memorySearch`, overridden key by key by `agents.list[].memorySearch`
 * (OpenClaw's per-agent override). An invalid override is ignored and described.
 */
export function agentMemorySettings(ctx: EngineContext, agentId: string): AgentMemorySettings {
  const loaded = ctx.config();
  const defaults = loaded.config.agents.defaults.memorySearch;
  const entry = loaded.config.agents.list.find((a) => a.id === agentId) as Record<string, unknown> | undefined;
  const over = entry?.memorySearch;
  if (!over || typeof over !== 'object' || Array.isArray(over)) return { settings: defaults };
  const parsed = MemorySearchSchema.safeParse(deepMerge(defaults as Record<string, unknown>, over as Record<string, unknown>));
  if (parsed.success) return { settings: parsed.data };
  const why = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  return {
    settings: defaults,
    invalidOverride: `agents.list[id=${agentId}].memorySearch is invalid (${why}); using agents.defaults.memorySearch`,
  };
}

/** Workspace and extra paths for the memory path rules (reading, writing, listing notes). */
export function memoryPathRoots(ctx: EngineContext, agentId: string, settings?: MemorySearchSettings): MemoryPathRoots {
  const s = settings ?? agentMemorySettings(ctx, agentId).settings;
  return { workspace: ctx.paths(agentId).workspace, extraPaths: s.extraPaths };
}
