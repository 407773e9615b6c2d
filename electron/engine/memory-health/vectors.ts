/**
 * Near-duplicates of MEMORY.md by vector, from the vectors the index already
 * stored — no new embedding pass. An index with line vectors (index/line-vectors.ts) embedded
 * every line unit of MEMORY.md's chunks and keeps each vector in `embedding_cache` under the
 * sha256 of the unit's text; a unit that is one entry gives that entry's vector. Two entries
 * whose vectors are closer than {@link VECTOR_DUPLICATE_COSINE} are listed as duplicates.
 * Without an index, or without line vectors, the answer says why it did not judge by vector.
 * The index is opened read-only.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import type { HealthItem } from '../../../shared/types/audit';
import { hashedLineUnits } from '../index/line-vectors';
import { blobVec } from '../index/store';
import { withoutLine, type MemoryEntry } from './entries';
import { unpackText } from '../index/chunk-text';
import { readIdentity } from '../index/schema';
import { cacheReader } from '../index/vector-cache';

/** Cosine at or above which two entries say the same thing (unit vectors: the dot product). */
export const VECTOR_DUPLICATE_COSINE = 0.95;

export interface VectorDuplicates {
  used: boolean;
  reason?: string | undefined;
  items: HealthItem[];
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    s += x * y;
    na += x * x;
    nb += y * y;
  }
  return na && nb ? s / Math.sqrt(na * nb) : 0;
}

/** Duplicates by the index's stored line vectors; `skip`: entry lines already listed as duplicates. */
export function vectorDuplicateItems(indexFile: string, rel: string, entries: readonly MemoryEntry[], fileText: string, skip: ReadonlySet<number>): VectorDuplicates {
  if (!fs.existsSync(indexFile)) return { used: false, reason: 'no search index yet', items: [] };
  let db: Database.Database | undefined;
  try {
    db = new Database(indexFile, { readonly: true, fileMustExist: true });
    const texts = (db.prepare('SELECT text FROM chunks WHERE path = ?').pluck().all(rel) as (string | Buffer)[]).map(unpackText);
    if (!texts.length) return { used: false, reason: `${rel} is not in the search index yet`, items: [] };
    const hasLines = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'chunk_lines'").get();
    if (!hasLines) return { used: false, reason: 'the index keeps no per-line vectors (an embedder with line vectors off, or none)', items: [] };
    const byLine = new Map<number, Float32Array>();
    // The index's one embedder (every chunk's vector is its own).
    const id = readIdentity(db);
    const get = id?.provider && id.model ? cacheReader(db, id.provider, id.model) : null;
    for (const text of get ? texts : []) {
      for (const u of hashedLineUnits(text)) {
        const mine = entries.filter((e) => u.text.includes(e.raw.trim()));
        if (mine.length !== 1) continue; // a unit of several entries says nothing about one
        const blob = get!(u.hash);
        if (blob) byLine.set((mine[0] as MemoryEntry).line, blobVec(blob));
      }
    }
    if (byLine.size < 2) return { used: false, reason: 'the index holds no per-entry vectors for MEMORY.md (entries shorter than a line unit are merged)', items: [] };
    const items: HealthItem[] = [];
    const list = entries.filter((e) => byLine.has(e.line));
    for (let j = 0; j < list.length; j++) {
      const b = list[j] as MemoryEntry;
      if (skip.has(b.line)) continue;
      for (let i = 0; i < j; i++) {
        const a = list[i] as MemoryEntry;
        const cos = dot(byLine.get(a.line) as Float32Array, byLine.get(b.line) as Float32Array);
        if (cos < VECTOR_DUPLICATE_COSINE) continue;
        items.push({
          kind: 'duplicate',
          entry: { path: rel, line: b.line, text: b.text },
          message: `Says what line ${a.line} says (vector similarity ${cos.toFixed(2)}).`,
          evidence: [{ path: rel, line: a.line, text: a.text }],
          detail: 'vector',
          fix: { kind: 'remove', path: rel, text: withoutLine(fileText, b.line) },
        });
        break;
      }
    }
    return { used: true, items };
  } catch (err) {
    return { used: false, reason: `the search index could not be read: ${(err as Error).message}`, items: [] };
  } finally {
    db?.close();
  }
}
