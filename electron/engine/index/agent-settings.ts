/**
 * An agent's effective memory-search settings and memory path roots, computed from the loaded
 * config alone. Kept apart from the registry (which loads SQLite, sqlite-vec and the embedder)
 * so that reading a memory file does not wait for the index modules to load.
 */
import type { EngineContext } from '../core/context';
import type { MemorySearchSettings } from '../config/schema';
import { agentMemorySearch, type AgentMemorySettings } from '../config/memory-search';
import type { MemoryPathRoots } from './memory-paths';

export type { AgentMemorySettings } from '../config/memory-search';

/**
 * `memory.search`, overridden key by key by `agents.entries.<id>.memory.search` (OpenClaw's
 * per-agent override; config/memory-search.ts). An invalid override is ignored and described.
 */
export function agentMemorySettings(ctx: EngineContext, agentId: string): AgentMemorySettings {
  return agentMemorySearch(ctx.config().config, agentId);
}

/** Workspace and extra paths for the memory path rules (reading, writing, listing notes). */
export function memoryPathRoots(ctx: EngineContext, agentId: string, settings?: MemorySearchSettings): MemoryPathRoots {
  const s = settings ?? agentMemorySettings(ctx, agentId).settings;
  return { workspace: ctx.paths(agentId).workspace, extraPaths: s.extraPaths };
}
