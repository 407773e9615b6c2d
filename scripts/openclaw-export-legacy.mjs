#!/usr/bin/env node
/**
 * Exports sessions from an OpenClaw 2026.9 SQLite session store into the legacy layout
 * (`sessions.json` + `<id>.jsonl`), event JSON unchanged, so tests can read OpenClaw-written
 * bytes through the JSONL reader. Used once to make tests/fixtures/openclaw-2026.9.6/legacy-export
 * (s5-anth is only in the store; s1/s2 are copies of the shared fixture's own export).
 *
 *   node scripts/openclaw-export-legacy.mjs <openclaw-agent.sqlite> <out sessions dir> <sessionId>...
 *
 * The database is copied to a temp file first and opened read-only there: OpenClaw's dir is
 * never opened for writing (no -wal/-shm files appear beside it).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { decompress } from 'fzstd';

const [src, outDir, ...ids] = process.argv.slice(2);
if (!src || !outDir || ids.length === 0) {
  console.error('usage: openclaw-export-legacy.mjs <openclaw-agent.sqlite> <out sessions dir> <sessionId>...');
  process.exit(2);
}
const tmp = mkdtempSync(join(tmpdir(), 'oc-export-'));
try {
  const copy = join(tmp, 'store.sqlite');
  copyFileSync(src, copy);
  const db = new Database(copy, { readonly: true, fileMustExist: true });
  const indexPath = join(outDir, 'sessions.json');
  const index = existsSync(indexPath) ? JSON.parse(readFileSync(indexPath, 'utf8')) : {};
  const events = db.prepare('SELECT event_json, event_zstd FROM transcript_events WHERE session_id = ? ORDER BY seq');
  for (const id of ids) {
    const rows = events.all(id);
    if (rows.length === 0) throw new Error(`${src}: no transcript events for session ${id}`);
    const lines = rows.map((r) => r.event_json ?? new TextDecoder().decode(decompress(r.event_zstd)));
    writeFileSync(join(outDir, `${id}.jsonl`), lines.join('\n') + '\n');
    for (const n of db.prepare('SELECT session_key, entry_json FROM session_nodes WHERE current_session_id = ?').all(id)) index[n.session_key] = JSON.parse(n.entry_json);
  }
  writeFileSync(indexPath, JSON.stringify(index, null, 2) + '\n');
  db.close();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
