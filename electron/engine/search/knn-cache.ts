/**
 * The KNN worker's copy of one index's chunk vectors in memory (vector-matrix.ts), kept in
 * step with the file, so that the vector side of a search is a SIMD scan of ≈ 0.8 KB a
 * chunk instead of sqlite-vec's brute-force float scan (≈ 7 vs ≈ 48 ms at 100k × 384 d,
 * bench/knn-matrix.ts).
 *
 * - **Load**: the first query starts reading every vector (`chunks_vec`) and every chunk's
 *   source and day (`chunks`, through the covering index `chunks_filter`) on a connection of
 *   its own, in one read transaction, a slice at a time so that the worker keeps answering
 *   (from vec0, as before) while it loads: ≈ 1 s per 100k chunks.
 * - **Refresh**: before each answer, when `PRAGMA data_version` says another connection has
 *   committed: the chunks with an id above the highest one seen are read (the store never
 *   reuses an id: index/store.ts), and when the index then holds fewer chunks than the copy,
 *   the ids that are gone are dropped. A refresh that finds more new chunks than it should
 *   read one by one (a big sync) starts a new load instead, answered from vec0 until done.
 *
 * Answers from the copy are the vec0 answers up to ≈ 4 × 10⁻⁶ in the cosine (vector-matrix.ts).
 */
import type { Db } from '../index/db';
import { hasTable } from '../index/schema';
import { blobVec } from '../index/store';
import { filterSpec, vec0Candidates, type Candidate, type CandidateFilter } from './candidates';
import { vectorScore } from './score';
import { VectorMatrix } from './vector-matrix';

/** New chunks a refresh reads one by one (≈ 0.2 ms each from vec0); more → a new load. */
const POINT_READS_MAX = 2_000;
/** Rows read between two turns of the worker's event loop during a load. */
const LOAD_SLICE = 4_096;

type ChunkMeta = [id: number, source: string, day: string | null];

interface Copy {
  matrix: VectorMatrix | null;
  /** Chunks without a vector (an embedding that failed): counted, never re-read. */
  vectorless: Set<number>;
  maxId: number;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function chunkSql(db: Db, where: string): string {
  const hint = hasTable(db, 'chunks_filter') ? ' INDEXED BY chunks_filter' : '';
  return `SELECT id, source, day FROM chunks${hint}${where}`;
}

export class KnnCache {
  private copy: Copy | null = null;
  private loading: Promise<void> | null = null;
  private failed = false;
  private closed = false;
  private version: number | null = null;

  /** `openReader` opens a new read-only connection to the index for a load. */
  constructor(private readonly openReader: () => Db) {}

  /** The `limit` nearest chunks (what `vec0Candidates` returns), from the copy once loaded. */
  query(db: Db, vec: Float32Array, limit: number, filter: CandidateFilter): Candidate[] {
    if (this.copy && !this.loading && this.refresh(db)) return this.fromCopy(this.copy, vec, limit, filter);
    this.startLoad();
    return vec0Candidates(db, vec, limit, filter);
  }

  /** Resolves once a load under way has finished: whether answers now come from the copy. */
  async ready(): Promise<boolean> {
    this.startLoad();
    await this.loading;
    return this.copy !== null;
  }

  close(): void {
    this.closed = true;
  }

  private fromCopy(copy: Copy, vec: Float32Array, limit: number, filter: CandidateFilter): Candidate[] {
    if (!copy.matrix) return [];
    return copy.matrix.query(vec, limit, filterSpec(filter)).map((h) => ({ id: h.id, score: vectorScore(h.cosine), raw: h.cosine }));
  }

  private startLoad(): void {
    if (this.loading || this.failed || this.closed || this.copy) return;
    this.loading = this.load()
      .then((copy) => {
        if (copy) this.copy = copy;
        this.version = null; // catch up with what was committed since the load's snapshot
      })
      .catch(() => {
        this.failed = true; // answers stay with vec0
      })
      .finally(() => {
        this.loading = null;
      });
  }

  /** Every vector and every chunk's metadata, in one snapshot; null when closed meanwhile. */
  private async load(): Promise<Copy | null> {
    const db = this.openReader();
    try {
      db.exec('BEGIN');
      const meta = new Map<number, ChunkMeta>();
      let maxId = 0;
      const rows = db.prepare(chunkSql(db, '')).raw().iterate() as IterableIterator<ChunkMeta>;
      if (!(await this.sliced(rows, (m) => (meta.set(m[0], m), (maxId = Math.max(maxId, m[0])))))) return null;
      let matrix: VectorMatrix | null = null;
      const vectorless = new Set(meta.keys());
      const vecs = db.prepare('SELECT rowid, embedding FROM chunks_vec').raw().iterate() as IterableIterator<[number | bigint, Buffer]>;
      const done = await this.sliced(vecs, ([rowid, blob]) => {
        const id = Number(rowid);
        const m = meta.get(id);
        if (!m) return; // a vector whose chunk is gone
        const v = blobVec(blob);
        if (!matrix) {
          matrix = new VectorMatrix(v.length);
          matrix.reserve(meta.size);
        }
        matrix.upsert(id, v, m[1], m[2]);
        vectorless.delete(id);
      });
      return done ? { matrix, vectorless, maxId } : null;
    } finally {
      if (db.inTransaction) db.exec('COMMIT');
      db.close();
    }
  }

  /** Run `each` over `rows`, yielding to the event loop every LOAD_SLICE rows; false when closed. */
  private async sliced<T>(rows: IterableIterator<T>, each: (row: T) => void): Promise<boolean> {
    let n = 0;
    try {
      for (let r = rows.next(); !r.done; r = rows.next()) {
        each(r.value);
        if (++n % LOAD_SLICE === 0) {
          await turn();
          if (this.closed) return false;
        }
      }
      return true;
    } finally {
      rows.return?.();
    }
  }

  /** Bring the copy up to date with `db`; false when too much changed (a new load started). */
  private refresh(db: Db): boolean {
    const copy = this.copy!;
    const version = Number(db.pragma('data_version', { simple: true }));
    if (version === this.version) return true;
    db.exec('BEGIN');
    try {
      const added = db.prepare(chunkSql(db, ' WHERE id > ? ORDER BY id')).raw().all(copy.maxId) as ChunkMeta[];
      if (added.length > POINT_READS_MAX) {
        this.copy = null;
        return false;
      }
      const vecOf = db.prepare('SELECT embedding FROM chunks_vec WHERE rowid = ?').pluck();
      for (const [id, source, day] of added) {
        const blob = vecOf.get(BigInt(id)) as Buffer | undefined;
        copy.maxId = Math.max(copy.maxId, id);
        if (!blob) {
          copy.vectorless.add(id);
          continue;
        }
        const v = blobVec(blob);
        copy.matrix ??= new VectorMatrix(v.length);
        copy.matrix.upsert(id, v, source, day);
      }
      const held = (copy.matrix?.size ?? 0) + copy.vectorless.size;
      const count = db.prepare('SELECT COUNT(*) FROM chunks').pluck().get() as number;
      if (count !== held) this.dropGone(db, copy);
    } finally {
      db.exec('COMMIT');
    }
    this.version = version;
    return true;
  }

  /** Forget the chunks the index no longer holds. */
  private dropGone(db: Db, copy: Copy): void {
    const hint = hasTable(db, 'chunks_filter') ? ' INDEXED BY chunks_filter' : '';
    const ids = new Set(db.prepare(`SELECT id FROM chunks${hint}`).pluck().all() as number[]);
    for (const id of copy.matrix?.allIds() ?? []) if (!ids.has(id)) copy.matrix!.remove(id);
    for (const id of copy.vectorless) if (!ids.has(id)) copy.vectorless.delete(id);
  }
}
