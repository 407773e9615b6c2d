/**
 * The one accessor for memory-search settings: every reader asks here, so the key path
 * (`memory.search`, per agent `agents.entries.<id>.memory.search`, OpenClaw 2026.9) is known in
 * one place. Retired paths never reach this far: load.ts moves them first (legacy-keys.ts).
 */
import { deepMerge } from './load';
import { agentMemorySearchKey, MEMORY_SEARCH_KEY } from './legacy-keys';
import { MemorySearchSchema, type AgentEntry, type CairnConfig, type MemorySearchSettings } from './schema';


/** The `agents.entries.<id>` value, if configured. */
export function agentEntry(config: CairnConfig, agentId: string): AgentEntry | undefined {
  return Object.hasOwn(config.agents.entries, agentId) ? config.agents.entries[agentId] : undefined;
}

/** The settings, plus why a per-agent override was ignored (for the caller to report once). */
export interface AgentMemorySettings {
  settings: MemorySearchSettings;
  invalidOverride?: string;
}

/**
 * `memory.search`, overridden key by key by `agents.entries.<id>.memory.search` (OpenClaw's
 * per-agent override) when `agentId` is given. An invalid override is ignored and described.
 */
export function agentMemorySearch(config: CairnConfig, agentId?: string): AgentMemorySettings {
  const defaults = config.memory.search;
  const entry = agentId === undefined ? undefined : (agentEntry(config, agentId) as Record<string, unknown> | undefined);
  const memory = entry?.memory;
  const over = memory && typeof memory === 'object' && !Array.isArray(memory) ? (memory as Record<string, unknown>).search : undefined;
  if (!over || typeof over !== 'object' || Array.isArray(over)) return { settings: defaults };
  const parsed = MemorySearchSchema.safeParse(deepMerge(defaults as Record<string, unknown>, over as Record<string, unknown>));
  if (parsed.success) return { settings: parsed.data };
  const why = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  return {
    settings: defaults,
    invalidOverride: `${agentMemorySearchKey(agentId as string)} is invalid (${why}); using ${MEMORY_SEARCH_KEY}`,
  };
}

/** The effective memory-search settings (shared, or one agent's when `agentId` is given). */
export function memorySearchSettings(config: CairnConfig, agentId?: string): MemorySearchSettings {
  return agentMemorySearch(config, agentId).settings;
}
