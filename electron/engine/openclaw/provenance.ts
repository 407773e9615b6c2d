/**
 * Where OpenClaw 2026.9 recorded a memory entry came from, read from its agent store
 * (`agents/<id>/agent/openclaw-agent.sqlite`, read-only through sessions/store/sqlite-readonly.ts):
 * - `memory_index_chunk_provenance` (docs/concepts/memory-architecture.md "Provenance"): per
 *   index chunk (`memory_index_chunks`: path + line range) the origin class (`owner`, `agent`,
 *   `untrusted`, `system`), the session kind, when it was observed and a supersession key;
 * - `memory_entry_origins` (memory-provenance.md): per tracked entry key the sessions it was
 *   derived from. A promoted entry in a memory file is tied to its key by the marker line
 *   `<!-- openclaw-memory-promotion:<key> -->` above it (OpenClaw's PROMOTION_MARKER).
 * OpenClaw's index may lag the file: a chunk counts only while the file's lines still read as
 * the chunk's text (annotation comments aside, which OpenClaw strips). The store is read once
 * per change of its size/mtime (fileStamp), a file's lines once per change of the file: a
 * search opens no database per result. Both are kept in a {@link ProvenanceCache} — an engine
 * member (provenance-handlers.ts), bounded, and dropped with the engine. A memory file is read
 * under the memory set's rule (util/path-inside.ts): no symlink between the workspace and it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { fileStamp, openForeignSqlite } from '../sessions/store/sqlite-readonly';
import { openclawDbFile } from '../sessions/store/openclaw-db-file';
import { firstSymlinkOnTheWay, relativeInside } from '../util/path-inside';
import type { LineProvenance, MemoryProvenance } from '../../../shared/types/search';

/** At most this many chunks and origin rows are read from one store. */
export const MAX_PROVENANCE_ROWS = 100_000;
/** A memory file above this size is not read to check chunks against (no provenance shown). */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
const MARKER = /^\s*<!--\s*openclaw-memory-promotion:([^\n]*?)\s*-->\s*$/u;
/** Least trusted first: when cited lines differ, the label names the least trusted. */
const TRUST: MemoryProvenance['origin'][] = ['untrusted', 'system', 'agent', 'owner'];

interface Chunk {
  startLine: number;
  endLine: number;
  hash: string;
  prov: MemoryProvenance;
}

interface Origin {
  origin: MemoryProvenance['origin'];
  observedAt: number;
  sessionId: string;
}

/** What one agent store recorded: chunks by path, origins by entry key. */
export interface StoreProvenance {
  chunks: Map<string, Chunk[]>;
  origins: Map<string, Origin[]>;
}

const EMPTY: StoreProvenance = { chunks: new Map(), origins: new Map() };

/** Memory files' lines kept between searches, in bytes of the files (least recently used dropped first). */
const FILE_CACHE_BYTES = 64 * 1024 * 1024;
/** Agent stores kept, in rows read (two full stores). */
const STORE_CACHE_ROWS = 4 * MAX_PROVENANCE_ROWS;

/** What provenance keeps between reads: agent stores and memory files' lines, each by its stamp. */
export interface ProvenanceCache {
  stores: LRUCache<string, { stamp: string; data: StoreProvenance }>;
  files: LRUCache<string, { stamp: string; lines: string[] }>;
}

/** An empty cache holding at most `fileBytes` of memory files (tests give less). */
export function provenanceCache(fileBytes = FILE_CACHE_BYTES): ProvenanceCache {
  return {
    stores: new LRUCache({ maxSize: STORE_CACHE_ROWS, sizeCalculation: (v) => 1 + v.data.chunks.size + v.data.origins.size }),
    files: new LRUCache({ maxSize: fileBytes, sizeCalculation: (v) => 1 + v.lines.reduce((n, l) => n + l.length + 1, 0) }),
  };
}

/** OpenClaw indexes an entry without its annotation comments: both sides are compared without them. */
const bare = (text: string) => text.replace(/[ \t]*<!--[\s\S]*?-->/gu, '').split('\n').map((l) => l.trimEnd()).join('\n');
const sha = (text: string) => crypto.createHash('sha256').update(bare(text)).digest('hex');
const isOrigin = (v: unknown): v is MemoryProvenance['origin'] => typeof v === 'string' && (TRUST as string[]).includes(v);
const iso = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : '');

function hasTable(db: import('better-sqlite3').Database, name: string): boolean {
  return Boolean(db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name));
}

/** Read both tables of `file` (memory chunks only: transcripts are cited by Cairn with other lines). */
function load(file: string, snapshotDir: string): StoreProvenance {
  const h = openForeignSqlite(file, snapshotDir);
  try {
    const out: StoreProvenance = { chunks: new Map(), origins: new Map() };
    if (hasTable(h.db, 'memory_index_chunk_provenance') && hasTable(h.db, 'memory_index_chunks')) {
      const rows = h.db
        .prepare(
          `SELECT c.path, c.start_line, c.end_line, c.text, p.origin_class, p.session_kind, p.observed_at, p.supersedes_key
           FROM memory_index_chunk_provenance p JOIN memory_index_chunks c ON c.id = p.chunk_id
           WHERE c.source = 'memory' AND octet_length(c.text) <= ? LIMIT ?`,
        )
        .all(MAX_FILE_BYTES, MAX_PROVENANCE_ROWS) as Record<string, unknown>[];
      for (const r of rows) {
        if (typeof r.path !== 'string' || typeof r.text !== 'string' || !isOrigin(r.origin_class)) continue;
        const s = Number(r.start_line);
        const e = Number(r.end_line);
        if (!Number.isSafeInteger(s) || !Number.isSafeInteger(e) || s < 1 || e < s) continue;
        const prov: MemoryProvenance = { origin: r.origin_class, sessionKind: String(r.session_kind ?? 'unknown'), observedAt: iso(Number(r.observed_at)) };
        if (typeof r.supersedes_key === 'string' && r.supersedes_key) prov.supersedesKey = r.supersedes_key;
        const list = out.chunks.get(r.path) ?? [];
        list.push({ startLine: s, endLine: e, hash: sha(r.text), prov });
        out.chunks.set(r.path, list);
      }
    }
    if (hasTable(h.db, 'memory_entry_origins')) {
      const rows = h.db.prepare('SELECT entry_key, session_id, origin_class, observed_at FROM memory_entry_origins LIMIT ?').all(MAX_PROVENANCE_ROWS) as Record<string, unknown>[];
      for (const r of rows) {
        if (typeof r.entry_key !== 'string' || typeof r.session_id !== 'string' || !isOrigin(r.origin_class)) continue;
        const list = out.origins.get(r.entry_key) ?? [];
        list.push({ origin: r.origin_class, observedAt: Number(r.observed_at), sessionId: r.session_id });
        out.origins.set(r.entry_key, list);
      }
    }
    return out;
  } finally {
    h.db.close();
  }
}

/** `agentId`'s recorded provenance, read again only when the store changed; empty when there is none. */
export function storeProvenance(cache: ProvenanceCache, stateDir: string, agentId: string, snapshotDir: string): StoreProvenance {
  const file = openclawDbFile(stateDir, agentId);
  const stamp = fileStamp(file);
  const hit = cache.stores.get(file);
  if (hit?.stamp === stamp) return hit.data;
  let data = EMPTY;
  if (fs.existsSync(file)) {
    try {
      data = load(file, snapshotDir);
    } catch {
      data = EMPTY; // the sessions view and doctor report an unreadable store; here nothing is shown
    }
  }
  cache.stores.set(file, { stamp, data });
  return data;
}

/**
 * The lines of workspace file `rel`, cached by size+mtime; undefined when it is not a real,
 * readable file inside — a symlink on the way (folder or file) counts as not inside, as for
 * the memory set (path-inside.ts firstSymlinkOnTheWay), and the file is opened without
 * following a link put there after that check (O_NOFOLLOW).
 */
function fileLines(cache: ProvenanceCache, workspace: string, rel: string): string[] | undefined {
  const file = path.resolve(workspace, rel);
  if (path.isAbsolute(rel) || relativeInside(workspace, file) === undefined || firstSymlinkOnTheWay(workspace, file) !== undefined) return undefined;
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > MAX_FILE_BYTES) return undefined;
    const stamp = `${st.size}:${st.mtimeMs}`;
    const hit = cache.files.get(file);
    if (hit?.stamp === stamp) return hit.lines;
    const lines = fs.readFileSync(fd, 'utf8').split('\n');
    cache.files.set(file, { stamp, lines });
    return lines;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The entry line under each promotion marker, with the provenance of the key's origins. */
function markedEntries(lines: string[], origins: Map<string, Origin[]>): LineProvenance[] {
  const out: LineProvenance[] = [];
  if (origins.size === 0) return out;
  lines.forEach((line, i) => {
    const key = MARKER.exec(line)?.[1]?.trim();
    const rows = key ? origins.get(key) : undefined;
    if (!rows?.length || i + 1 >= lines.length) return;
    const least = TRUST.find((t) => rows.some((r) => r.origin === t)) ?? 'untrusted';
    const latest = Math.max(...rows.map((r) => r.observedAt));
    const sessions = [...new Set(rows.map((r) => r.sessionId))];
    out.push({ startLine: i + 2, endLine: i + 2, provenance: { origin: least, sessionKind: 'unknown', observedAt: iso(latest), sessions } });
  });
  return out;
}

/** Every line range of `rel` whose provenance OpenClaw recorded and that still reads as recorded. */
export function lineProvenance(cache: ProvenanceCache, store: StoreProvenance, workspace: string, rel: string, text?: string): LineProvenance[] {
  const chunks = store.chunks.get(rel) ?? [];
  if (chunks.length === 0 && store.origins.size === 0) return [];
  const lines = text === undefined ? fileLines(cache, workspace, rel) : text.split('\n');
  if (!lines) return [];
  const out: LineProvenance[] = chunks
    .filter((c) => c.endLine <= lines.length && sha(lines.slice(c.startLine - 1, c.endLine).join('\n')) === c.hash)
    .map((c) => ({ startLine: c.startLine, endLine: c.endLine, provenance: c.prov }));
  out.push(...markedEntries(lines, store.origins));
  return out.sort((a, b) => a.startLine - b.startLine);
}

/** The provenance of lines `from`–`to` of `rel`: the least trusted of the ranges it overlaps, with their sessions. */
export function rangeProvenance(cache: ProvenanceCache, store: StoreProvenance, workspace: string, rel: string, from: number, to: number): MemoryProvenance | undefined {
  const hits = lineProvenance(cache, store, workspace, rel).filter((p) => p.startLine <= to && p.endLine >= from);
  if (hits.length === 0) return undefined;
  const rank = (p: MemoryProvenance) => TRUST.indexOf(p.origin);
  const pick = hits.reduce((a, b) => (rank(b.provenance) < rank(a.provenance) || (rank(b.provenance) === rank(a.provenance) && b.provenance.observedAt > a.provenance.observedAt) ? b : a));
  const sessions = [...new Set(hits.flatMap((h) => h.provenance.sessions ?? []))];
  return { ...pick.provenance, ...(sessions.length ? { sessions } : {}) };
}
