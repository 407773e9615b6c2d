/**
 * OpenClaw's retired config paths that Cairn still reads, moved to today's before validation.
 *
 * OpenClaw 2026.9 moved `agents.defaults.memorySearch` and top-level `memorySearch` to
 * `memory.search`, the `agents.list` roster to keyed `agents.entries.<id>`, and per-agent
 * `memorySearch` to `agents.entries.<id>.memory.search`, and top-level `defaultModel` to
 * `agents.defaults.model` (its
 * docs/gateway/doctor/config-migrations.md). Older installs (and cairn.json files written by
 * older Cairn) still carry the old paths: each file is migrated on its own before the files are
 * merged, so a later file still wins over an earlier one, and inside one file today's path
 * wins over the old one key by key (as OpenClaw's doctor does). Each move is reported once as
 * a note naming both paths. This file is the only place that knows the old paths.
 */

type Json = Record<string, unknown>;

/** Today's key path of the shared memory-search settings. */
export const MEMORY_SEARCH_KEY = 'memory.search';

/** Today's key path of one agent's memory-search override. */
export function agentMemorySearchKey(agentId: string): string {
  return `agents.entries.${agentId}.memory.search`;
}

/** One retired path found in a file and where its values went. */
export interface LegacyMove {
  from: string;
  to: string;
  /** Set when a value could not be moved (e.g. an `agents.list` entry without an id). */
  dropped?: string;
}

function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep merge where `over` wins (objects key by key, anything else replaced). */
function mergeOver(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isObj(b) && isObj(v) ? mergeOver(b, v) : v;
  }
  return out;
}

/** `obj[key]` as an object, created when absent (or replaced when not an object). */
function child(obj: Json, key: string): Json {
  if (!isObj(obj[key])) obj[key] = {};
  return obj[key] as Json;
}

/** Move an entry's own `memorySearch` to `memory.search` (today's entry value wins). */
function moveEntryMemorySearch(entry: Json, where: string, moves: LegacyMove[]): void {
  if (!('memorySearch' in entry)) return;
  const legacy = entry.memorySearch;
  delete entry.memorySearch;
  if (!isObj(legacy)) return;
  const memory = child(entry, 'memory');
  memory.search = mergeOver(legacy, isObj(memory.search) ? memory.search : {});
  moves.push({ from: `${where}.memorySearch`, to: `${where}.memory.search` });
}

/**
 * A copy of `raw` with every retired path moved to today's; `raw` is not changed. Values
 * already at today's path win over the moved ones.
 */
export function migrateLegacyKeys(raw: Json): { config: Json; moves: LegacyMove[] } {
  const config = structuredClone(raw);
  const moves: LegacyMove[] = [];
  // Oldest first: top-level memorySearch < agents.defaults.memorySearch < memory.search.
  let legacySearch: Json | undefined;
  if ('memorySearch' in config) {
    const v = config.memorySearch;
    delete config.memorySearch;
    if (isObj(v)) legacySearch = v;
    moves.push({ from: 'memorySearch', to: 'memory.search' });
  }
  const agents = isObj(config.agents) ? config.agents : undefined;
  const defaults = agents && isObj(agents.defaults) ? agents.defaults : undefined;
  if (defaults && 'memorySearch' in defaults) {
    const v = defaults.memorySearch;
    delete defaults.memorySearch;
    if (isObj(v)) legacySearch = mergeOver(legacySearch ?? {}, v);
    moves.push({ from: 'agents.defaults.memorySearch', to: 'memory.search' });
  }
  if (legacySearch) {
    const memory = child(config, 'memory');
    memory.search = mergeOver(legacySearch, isObj(memory.search) ? memory.search : {});
  }
  if (agents && 'list' in agents) {
    const list = agents.list;
    delete agents.list;
    const fromList: Json = {};
    if (Array.isArray(list)) {
      list.forEach((item, i) => {
        if (!isObj(item) || typeof item.id !== 'string' || !item.id.trim()) {
          moves.push({ from: `agents.list[${i}]`, to: 'agents.entries', dropped: 'the entry has no id' });
          return;
        }
        const { id, ...rest } = item;
        moveEntryMemorySearch(rest, `agents.list[${i}]`, moves);
        fromList[id.trim()] = mergeOver(isObj(fromList[id.trim()]) ? (fromList[id.trim()] as Json) : {}, rest);
      });
    }
    const entries = isObj(agents.entries) ? agents.entries : {};
    const merged: Json = { ...fromList };
    for (const [id, e] of Object.entries(entries)) merged[id] = isObj(e) && isObj(fromList[id]) ? mergeOver(fromList[id] as Json, e) : e;
    agents.entries = merged;
    moves.push({ from: 'agents.list', to: 'agents.entries' });
  }
  if ('defaultModel' in config) {
    // Top-level `defaultModel` became `agents.defaults.model` (the chat model Cairn may use).
    const v = config.defaultModel;
    delete config.defaultModel;
    const d = child(child(config, 'agents'), 'defaults');
    if (d.model === undefined && (typeof v === 'string' || isObj(v))) d.model = v;
    moves.push({ from: 'defaultModel', to: 'agents.defaults.model' });
  }
  if (agents && isObj(agents.entries)) {
    for (const [id, e] of Object.entries(agents.entries)) if (isObj(e)) moveEntryMemorySearch(e, `agents.entries.${id}`, moves);
  }
  return { config, moves };
}

/** The note shown for one move (Status, `cairn doctor`, the CLI's config warnings). */
export function legacyMoveNote(file: string, m: LegacyMove): string {
  if (m.dropped) return `${file}: ${m.from} is OpenClaw's older roster; ${m.dropped}, so it is ignored (today's key: ${m.to})`;
  return `${file}: ${m.from} is OpenClaw's older name (before 2026.9); read as ${m.to}, which wins where both are set`;
}

/**
 * Today's key path for a path written with a retired prefix (what `config.set` writes):
 * `agents.defaults.memorySearch.x` → `memory.search.x`; `memorySearch.x` → `memory.search.x`;
 * `agents.entries.<id>.memorySearch.x` → `agents.entries.<id>.memory.search.x`. Other paths
 * are returned unchanged (`agents.list[n]` has no id to key by, so it is not mapped).
 */
export function currentKeyPath(keyPath: string): string {
  if (keyPath === 'agents.defaults.memorySearch' || keyPath.startsWith('agents.defaults.memorySearch.')) {
    return `memory.search${keyPath.slice('agents.defaults.memorySearch'.length)}`;
  }
  if (keyPath === 'memorySearch' || keyPath.startsWith('memorySearch.')) return `memory.search${keyPath.slice('memorySearch'.length)}`;
  const m = /^agents\.entries\.([^.]+)\.memorySearch(\..*)?$/.exec(keyPath);
  if (m) return `agents.entries.${m[1]}.memory.search${m[2] ?? ''}`;
  return keyPath;
}
