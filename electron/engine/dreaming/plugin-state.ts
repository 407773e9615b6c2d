/**
 * Reading dreaming's machine state from OpenClaw's shared state database
 * (`<state>/state/openclaw.sqlite`, table `plugin_state_entries`, plugin `memory-core`),
 * read-only through sessions/store/sqlite-readonly.ts: nothing is written there or beside it.
 *
 * What memory-core keeps there (OpenClaw 2026.9.6, extensions/memory-core dreaming-state.ts):
 * - `dreaming-memory-backups`: MEMORY.md as it was before each accepted rewrite
 *   (`{createdAt, content, contentHash}`; OpenClaw keeps the newest 8);
 * - `short-term-recall`: one row per candidate (path, lines, snippet, recallCount, query
 *   hashes, recall days, concept tags, promotedAt, provenance);
 * - `short-term-phase-signals`: light / REM revisits per candidate key;
 * - `memory-host.events`: the recall log, with the query text of each recall.
 * Workspace rows are keyed by sha256 of the workspace path; a copied state dir (a fixture, a
 * backup) has another path, so rows recorded for one other workspace of the same name are
 * used and the match is reported as `relocated`. Kept apart from the views so the MEMORY.md
 * health audit can read the same store.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openForeignSqlite } from '../sessions/store/sqlite-readonly';
import type { DreamingStoreInfo } from '../../../shared/types/dreaming';

/** At most this many rows of one namespace are read (OpenClaw caps a namespace at 50,000). */
export const MAX_ROWS_PER_NAMESPACE = 5000;
/** A row's value above this size is skipped, not loaded (a MEMORY.md copy is bounded by OpenClaw's file budget). */
export const MAX_VALUE_BYTES = 2 * 1024 * 1024;

/** A copy of MEMORY.md dreaming saved before rewriting it. */
export interface MemoryBackup {
  createdAt: string;
  content: string;
  contentHash: string;
}

/** One row of the recall store, as OpenClaw wrote it (fields are checked where used). */
export type RecallRow = Record<string, unknown> & { key: string; path: string; startLine: number; endLine: number };

/** One logged recall: the query and the results it returned. */
export interface RecallEvent {
  type: string;
  timestamp?: string;
  query?: string;
  results: { path: string; startLine: number; endLine: number; score?: number }[];
}

/** Everything dreaming recorded for one workspace. */
export interface DreamingState {
  info: DreamingStoreInfo;
  backups: MemoryBackup[];
  recalls: RecallRow[];
  phaseSignals: Map<string, { lightHits?: number; remHits?: number }>;
  events: RecallEvent[];
}

/** The shared state database of an OpenClaw state dir. */
export function stateDbFile(stateDir: string): string {
  return path.join(stateDir, 'state', 'openclaw.sqlite');
}

/** memory-core's key for a workspace: sha256 of its resolved path. */
export function workspaceKey(workspaceDir: string): string {
  return crypto.createHash('sha256').update(path.resolve(workspaceDir).replace(/\\/g, '/')).digest('hex');
}

interface Row {
  namespace: string;
  entry_key: string;
  value_json: string | null;
  bytes: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Read dreaming's state for `workspaceDir`. Never throws for a missing or foreign file: the
 * problem is in `info.problem` and the lists are empty.
 */
export function readDreamingState(stateDir: string, workspaceDir: string, snapshotDir: string): DreamingState {
  const file = stateDbFile(stateDir);
  const empty = (problem: string | undefined, found: boolean): DreamingState => ({
    info: { file, found, workspaceMatch: 'none', rows: 0, capped: false, ...(problem ? { problem } : {}) },
    backups: [],
    recalls: [],
    phaseSignals: new Map(),
    events: [],
  });
  if (!fs.existsSync(file)) return empty(undefined, false);
  let rows: Row[];
  let capped = false;
  try {
    const h = openForeignSqlite(file, snapshotDir);
    try {
      const has = h.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'plugin_state_entries'").get();
      if (!has) return empty('no "plugin_state_entries" table: not a state database of OpenClaw 2026.9', true);
      const cols = new Set((h.db.prepare('PRAGMA table_info(plugin_state_entries)').all() as { name: string }[]).map((c) => c.name));
      const missing = ['plugin_id', 'namespace', 'entry_key', 'value_json'].filter((c) => !cols.has(c));
      if (missing.length) return empty(`plugin_state_entries has no ${missing.join(', ')} column: a layout Cairn does not know`, true);
      const stmt = h.db.prepare(
        `SELECT namespace, entry_key, CASE WHEN octet_length(value_json) <= ? THEN value_json END AS value_json, octet_length(value_json) AS bytes
         FROM plugin_state_entries WHERE plugin_id = 'memory-core' AND namespace = ? ORDER BY created_at, entry_key LIMIT ?`,
      );
      rows = [];
      for (const ns of ['dreaming-memory-backups', 'short-term-recall', 'short-term-phase-signals', 'memory-host.events']) {
        const got = stmt.all(MAX_VALUE_BYTES, ns, MAX_ROWS_PER_NAMESPACE + 1) as Row[];
        if (got.length > MAX_ROWS_PER_NAMESPACE) capped = true;
        rows.push(...got.slice(0, MAX_ROWS_PER_NAMESPACE));
      }
    } finally {
      h.db.close();
    }
  } catch (err) {
    return empty(`cannot read it: ${(err as Error).message}`, true);
  }
  const parsed = rows.flatMap((r) => {
    if (r.value_json === null) return [];
    try {
      const v: unknown = JSON.parse(r.value_json);
      return isRecord(v) ? [{ ns: r.namespace, key: r.entry_key, v }] : [];
    } catch {
      return [];
    }
  });
  // Which workspace's rows: this path's key, else the one other workspace recorded under the same folder name.
  const want = workspaceKey(workspaceDir);
  const recorded = new Map<string, string>();
  for (const p of parsed) if (typeof p.v.workspaceKey === 'string' && typeof p.v.workspaceDir === 'string') recorded.set(p.v.workspaceKey, p.v.workspaceDir);
  let key: string | undefined;
  let match: DreamingStoreInfo['workspaceMatch'] = 'none';
  if (recorded.has(want)) {
    key = want;
    match = 'exact';
  } else {
    const same = [...recorded].filter(([, dir]) => path.posix.basename(dir.replace(/\\/g, '/')) === path.basename(workspaceDir));
    if (same.length === 1) {
      key = same[0]?.[0];
      match = 'relocated';
    }
  }
  const mine = parsed.filter((p) => (p.ns === 'memory-host.events' ? key !== undefined && p.key.startsWith(key.slice(0, 24)) : p.v.workspaceKey === key && key !== undefined));
  const state = empty(undefined, true);
  state.info = { file, found: true, workspaceMatch: match, rows: rows.length, capped, ...(key && match === 'relocated' ? { recordedWorkspace: recorded.get(key) } : {}) };
  for (const { ns, v } of mine) {
    const value = v.value;
    if (ns === 'dreaming-memory-backups' && isRecord(value) && typeof value.content === 'string' && typeof value.createdAt === 'string') {
      state.backups.push({ createdAt: value.createdAt, content: value.content, contentHash: typeof value.contentHash === 'string' ? value.contentHash : sha256(value.content) });
    } else if (ns === 'short-term-recall' && isRecord(value) && typeof value.key === 'string' && typeof value.path === 'string') {
      state.recalls.push({ ...value, key: value.key, path: value.path, startLine: num(value.startLine) ?? 1, endLine: num(value.endLine) ?? num(value.startLine) ?? 1 });
    } else if (ns === 'short-term-phase-signals' && isRecord(value)) {
      for (const [k, e] of Object.entries(isRecord(value.entries) ? value.entries : { [String(v.key)]: value })) {
        if (isRecord(e)) state.phaseSignals.set(k, { lightHits: num(e.lightHits), remHits: num(e.remHits) });
      }
    } else if (ns === 'memory-host.events' && isRecord(v.event) && typeof v.event.type === 'string' && v.event.type.startsWith('memory.recall')) {
      const e = v.event;
      const results = Array.isArray(e.results) ? e.results.filter(isRecord).flatMap((r) => (typeof r.path === 'string' ? [{ path: r.path, startLine: num(r.startLine) ?? 1, endLine: num(r.endLine) ?? 1, score: num(r.score) }] : [])) : [];
      state.events.push({ type: e.type as string, timestamp: str(e.timestamp), query: str(e.query), results });
    }
  }
  state.backups.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return state;
}

export function sha256(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
