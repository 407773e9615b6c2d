/**
 * OpenClaw's recall store, read only, for "never recalled since it was promoted".
 * memory-core (`recordShortTermRecalls`) keeps one entry per recalled daily-note snippet in
 * its plugin state — `plugin_state_entries` (plugin `memory-core`, namespace
 * `short-term-recall`) of `<state>/state/openclaw.sqlite`, older builds
 * `<state>/plugin-state/state.sqlite` — with `recallCount`, `lastRecalledAt` and, once
 * dreaming promoted it to MEMORY.md, `promotedAt`. Absent or unreadable: the answer is
 * "unknown", never a guess. The database is opened read-only and never written.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/** One recall entry as memory-core stores it (only the fields read here). */
export interface RecallEntry {
  path: string;
  startLine: number;
  endLine: number;
  snippet: string;
  recallCount: number;
  lastRecalledAt?: string | undefined;
  promotedAt?: string | undefined;
}

export type RecallRead = { state: 'known'; entries: RecallEntry[]; source: string } | { state: 'unknown'; reason: string };

const CANDIDATES = [path.join('state', 'openclaw.sqlite'), path.join('plugin-state', 'state.sqlite')];

/** The recall entries of `workspace` in the state dir's plugin state, or why they are unknown. */
export function readRecallStore(stateDir: string, workspace: string): RecallRead {
  const found = CANDIDATES.map((c) => path.join(stateDir, c)).filter((f) => fs.existsSync(f));
  if (!found.length) return { state: 'unknown', reason: `OpenClaw's recall store was not found (${CANDIDATES.join(' or ')} in the state dir)` };
  const want = path.resolve(workspace);
  const errors: string[] = [];
  for (const file of found) {
    let db: Database.Database | undefined;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true });
      const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'plugin_state_entries'").get();
      if (!has) {
        errors.push(`${file}: no plugin_state_entries table`);
        continue;
      }
      const rows = db
        .prepare("SELECT value_json FROM plugin_state_entries WHERE plugin_id = 'memory-core' AND namespace = 'short-term-recall' AND (expires_at IS NULL OR expires_at > ?)")
        .all(Date.now()) as { value_json: string }[];
      const entries: RecallEntry[] = [];
      for (const r of rows) {
        try {
          const v = JSON.parse(r.value_json) as { workspaceDir?: string; value?: Partial<RecallEntry> };
          if (v.workspaceDir && path.resolve(v.workspaceDir) !== want) continue;
          const e = v.value;
          if (!e || typeof e.path !== 'string') continue;
          entries.push({
            path: e.path,
            startLine: Number(e.startLine) || 1,
            endLine: Number(e.endLine) || Number(e.startLine) || 1,
            snippet: String(e.snippet ?? ''),
            recallCount: Number(e.recallCount) || 0,
            lastRecalledAt: typeof e.lastRecalledAt === 'string' ? e.lastRecalledAt : undefined,
            promotedAt: typeof e.promotedAt === 'string' ? e.promotedAt : undefined,
          });
        } catch {
          // one bad row does not hide the rest
        }
      }
      return { state: 'known', entries, source: file };
    } catch (err) {
      errors.push(`${file}: ${(err as Error).message}`);
    } finally {
      db?.close();
    }
  }
  return { state: 'unknown', reason: `OpenClaw's recall store could not be read: ${errors.join('; ')}` };
}
