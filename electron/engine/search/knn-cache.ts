/**
 * The KNN worker's copy of one index's chunk vectors in memory (vector-matrix.ts), kept in
 * step with the file, so that the vector side of a search is a SIMD scan of 1 byte per
 * dimension of a chunk instead of sqlite-vec's brute-force scan (bench/knn-matrix.ts). The
 * copy only chooses candidates: their scores are computed from the float copies on disk,
 * read in one batch per query (exact-vectors.ts), so the answers are `vec0Candidates`'s.
 *
 * - **Load**: started with the worker (or by the first query): every chunk's id, source and
 *   day (`chunks`, through the covering index `chunks_filter`), then every int8 vector, read
 *   from vec0's own 1,024-vector blocks (`vectorBlocks`), on a connection of its own, in one read
 *   transaction, ≤ 8 ms at a time so that the worker keeps answering (from vec0, as before)
 *   while it loads: ≈ 1.5 s per 100k chunks × 384 d.
 * - **Refresh**: before each answer, when `PRAGMA data_version` says another connection has
 *   committed: the chunks added after the last one seen are read (`chunks.added`, a counter
 *   the store never reuses: index/store.ts; an index older than schema 9 has none and its
 *   ids rise instead), and when the index then holds fewer chunks than the copy, the ids
 *   that are gone are dropped. A rebuilt file (a new `generation` in meta) is loaded anew. A refresh that finds more new chunks than it should
 *   read one by one (a big sync) starts a new load instead, answered from vec0 until done.
 *
 */
import type { Db } from '../index/db';
import { hasTable } from '../index/schema';
import { filterSpec, vec0Candidates, type Candidate, type CandidateFilter } from './candidates';
import { oversampled, rescoreExact } from './exact-vectors';
import { VectorMatrix } from './vector-matrix';

/** New chunks a refresh reads one by one (≈ 0.2 ms each from vec0); more → a new load. */
const POINT_READS_MAX = 2_000;
/** Rows between two looks at the clock during a load. */
const LOAD_CHECK = 256;
/** Longest stretch of a load between two turns of the worker's event loop (a query waits at most this). */
const LOAD_SLICE_MS = 8;

type ChunkMeta = [id: number, source: string, day: string | null];

interface Copy {
  matrix: VectorMatrix | null;
  /** Chunks without a vector (an embedding that failed): counted, never re-read. */
  vectorless: Set<number>;
  /** The highest `added` seen (the highest id in an index without that column). */
  maxAdded: number;
  /** The file's `generation` (meta) when loaded: a rebuild numbers its chunks afresh. */
  generation: string | null;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An int8 vector as stored (a view of `b`, which the caller must not reuse meanwhile). */
function int8Of(b: Buffer): Int8Array {
  return new Int8Array(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * The int8 vectors of `chunks_vec` read from vec0's own storage a block at a time
 * (sqlite-vec 0.1.9 keeps 1,024 vectors per row of `chunks_vec_vector_chunks00`, with their
 * rowids and a validity bitmap in `chunks_vec_chunks`): 100 reads of ≈ 400 KB instead of
 * 100k through the virtual table, whose per-row Buffers the worker's allocator kept long
 * after (+90 MB of RSS at 100k). Null when the tables do not have that shape (another
 * sqlite-vec): the caller reads through vec0 then. Each block is checked against its own sizes.
 */
function vectorBlocks(db: Db): IterableIterator<[number, Int8Array][]> | null {
  if (!hasTable(db, 'chunks_vec_chunks') || !hasTable(db, 'chunks_vec_vector_chunks00')) return null;
  let stmt;
  try {
    stmt = db.prepare(
      'SELECT c.size, c.validity, c.rowids, v.vectors FROM chunks_vec_chunks c JOIN chunks_vec_vector_chunks00 v ON v.rowid = c.chunk_id ORDER BY c.chunk_id',
    );
  } catch {
    return null;
  }
  const rows = stmt.raw().iterate() as IterableIterator<[number, Buffer, Buffer, Buffer]>;
  function* blocks(): Generator<[number, Int8Array][]> {
    for (const [size, validity, rowids, vectors] of rows) {
      if (rowids.length !== size * 8 || validity.length * 8 < size || vectors.length % size !== 0) {
        throw new Error('chunks_vec: unexpected sqlite-vec storage layout');
      }
      const bytes = vectors.length / size;
      const block = int8Of(vectors); // copied into the matrix before the next block is read
      const out: [number, Int8Array][] = [];
      for (let i = 0; i < size; i++) {
        if (!(validity[i >> 3]! & (1 << (i & 7)))) continue;
        out.push([Number(rowids.readBigInt64LE(i * 8)), block.subarray(i * bytes, (i + 1) * bytes)]);
      }
      yield out;
    }
  }
  return blocks();
}

/** Position of `id` in the ascending `ids`, or -1. */
function indexOf(ids: readonly number[], id: number): number {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid]!;
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Reads of `chunks` go through the covering index chunks_filter(id, source, day) where the index has it. */
function chunksTable(db: Db): string {
  return hasTable(db, 'chunks_filter') ? 'chunks INDEXED BY chunks_filter' : 'chunks';
}

function chunkSql(db: Db, where: string): string {
  return `SELECT id, source, day FROM ${chunksTable(db)}${where}`;
}

/** The column that orders chunks by when they were written: `added` (schema 9), else the id. */
function addedColumn(db: Db): 'added' | 'id' {
  return hasTable(db, 'chunks_added') ? 'added' : 'id';
}

function generationOf(db: Db): string | null {
  return (db.prepare("SELECT value FROM meta WHERE key = 'generation'").pluck().get() as string | undefined) ?? null;
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
    if (this.copy && !this.loading && this.refresh(db)) return this.fromCopy(db, this.copy, vec, limit, filter);
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

  /** Rows and bytes of the loaded copy (null until loaded), for benchmarks. */
  stats(): { rows: number; bytes: number } | null {
    return this.copy ? { rows: this.copy.matrix?.size ?? 0, bytes: this.copy.matrix?.bytes ?? 0 } : null;
  }

  /** The copy's candidates re-scored exactly from the float copies (one batched read). */
  private fromCopy(db: Db, copy: Copy, vec: Float32Array, limit: number, filter: CandidateFilter): Candidate[] {
    if (!copy.matrix) return [];
    return rescoreExact(db, vec, copy.matrix.candidates(vec, oversampled(limit), filterSpec(filter)), limit);
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
      // The chunks' metadata as parallel arrays in id order (chunks_filter is ordered by id):
      // a Map of 100k small arrays was ≈ 60 MB of heap at the load's peak.
      const ids: number[] = [];
      const sources: string[] = [];
      const days: (string | null)[] = [];
      const rows = db.prepare(`${chunkSql(db, '')} ORDER BY id`).raw().iterate() as IterableIterator<ChunkMeta>;
      const listed = await this.sliced(rows, ([id, source, day]) => {
        ids.push(id);
        sources.push(source);
        days.push(day);
      });
      if (!listed) return null;
      let matrix: VectorMatrix | null = null;
      const found = new Uint8Array(ids.length);
      const add = (rowid: number, v: Int8Array) => {
        const at = indexOf(ids, rowid);
        if (at < 0) return; // a vector whose chunk is gone
        if (!matrix) {
          matrix = new VectorMatrix(v.length);
          matrix.reserve(ids.length);
        }
        matrix.upsert(ids[at]!, v, sources[at]!, days[at]!);
        found[at] = 1;
      };
      const blocks = vectorBlocks(db);
      const done = blocks
        ? await this.sliced(blocks, (block) => block.forEach(([rowid, v]) => add(rowid, v)), 1)
        : await this.sliced(db.prepare('SELECT rowid, embedding FROM chunks_vec').raw().iterate() as IterableIterator<[number | bigint, Buffer]>, ([rowid, blob]) => add(Number(rowid), int8Of(blob)));
      if (!done) return null;
      const vectorless = new Set(ids.filter((_, i) => found[i] === 0));
      const maxAdded = Number(db.prepare(`SELECT COALESCE(MAX(${addedColumn(db)}), 0) FROM chunks`).pluck().get());
      return { matrix, vectorless, maxAdded, generation: generationOf(db) };
    } finally {
      if (db.inTransaction) db.exec('COMMIT');
      db.close();
    }
  }

  /**
   * Run `each` over `rows`, yielding to the event loop every LOAD_SLICE_MS (the clock read
   * every `check` rows); false when closed.
   */
  private async sliced<T>(rows: IterableIterator<T>, each: (row: T) => void, check = LOAD_CHECK): Promise<boolean> {
    let n = 0;
    let since = performance.now();
    try {
      for (let r = rows.next(); !r.done; r = rows.next()) {
        each(r.value);
        if (++n % check === 0 && performance.now() - since >= LOAD_SLICE_MS) {
          await turn();
          if (this.closed) return false;
          since = performance.now();
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
      const col = addedColumn(db);
      const high = Number(db.prepare(`SELECT COALESCE(MAX(${col}), 0) FROM chunks`).pluck().get());
      const added =
        generationOf(db) === copy.generation
          ? (db.prepare(`SELECT id, source, day FROM chunks WHERE ${col} > ? ORDER BY ${col}`).raw().all(copy.maxAdded) as ChunkMeta[])
          : null;
      if (added === null || added.length > POINT_READS_MAX) {
        this.copy = null;
        return false;
      }
      copy.maxAdded = Math.max(copy.maxAdded, high);
      const vecOf = db.prepare('SELECT embedding FROM chunks_vec WHERE rowid = ?').pluck();
      for (const [id, source, day] of added) {
        const blob = vecOf.get(BigInt(id)) as Buffer | undefined;
        if (!blob) {
          copy.matrix?.remove(id); // an id freed and given again (store.ts) to a chunk without a vector
          copy.vectorless.add(id);
          continue;
        }
        copy.vectorless.delete(id);
        const v = int8Of(blob);
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
    const ids = new Set(db.prepare(`SELECT id FROM ${chunksTable(db)}`).pluck().all() as number[]);
    for (const id of copy.matrix?.allIds() ?? []) if (!ids.has(id)) copy.matrix!.remove(id);
    for (const id of copy.vectorless) if (!ids.has(id)) copy.vectorless.delete(id);
  }
}
