/**
 * Writing one changed file's chunk rows into the index during a sync (sync.ts): a small file
 * in one transaction, a big one in steps (short transactions, or in a rebuild steps inside the
 * file's savepoint with FTS5 flushes and merges between them), a streamed one part by part
 * (sync-stream.ts). Whatever the path, a file that fails to write is dropped as a whole and
 * named, and the rest of the sync goes on.
 */
import type { Db } from './db';
import type { PreparedChunk } from './prepare';
import type { ChunkRow, FileRow, Store } from './store';
import type { FilePart } from './sync-stream';
import { mergeFts } from './bulk-fts';
import { writeFailure } from './sync-files';
import { STEP_CHUNKS, writeSteps } from './write-steps';

/**
 * Chunks per commit in bulk mode: a commit writes the dirty pages and FTS5's pending terms
 * (a new segment; merged in steps by bulk-fts.ts) in one synchronous step of a few ms.
 */
export const BULK_COMMIT_CHUNKS = 512;

/** A changed file (or a part of a streamed one) with its chunks, queued for embedding and writing. */
export interface PendingFile {
  file: FileRow;
  chunks: PreparedChunk[];
  /** A part of a big file written as a stream (sync-stream.ts); absent for a whole file. */
  part?: FilePart;
}

/** Where the writing of a file in steps stands (FTS5 flushes and merges go by chunks written). */
interface StepPos {
  at: number;
  prev: number;
  unflushed: number;
}

/** What a FileWriter needs from its sync. */
export interface FileWriterOptions {
  db: Db;
  store: Store;
  /** The sync's private rebuild database, in one open transaction. */
  bulk: boolean;
  /** Vectors are stored (an embedder is set). */
  vectors: boolean;
  yieldNow: (force?: boolean) => Promise<void>;
  signal?: AbortSignal | undefined;
}

/** Writes the files of one sync, one at a time, in the order they were queued. */
export class FileWriter {
  /** The streamed file being written (its parts come in order, nothing else in between), or null. */
  private streamPos: StepPos | null = null;
  /** A streamed file that failed: its remaining parts are skipped. */
  private dropping: string | null = null;
  /** One transaction per file (a file is never half-written). */
  private readonly writeFile: (p: PendingFile, byHash: Map<string, Float32Array>) => void;

  constructor(private readonly o: FileWriterOptions) {
    this.writeFile = o.db.transaction((p: PendingFile, byHash: Map<string, Float32Array>) => {
      o.store.replaceFile(p.file, this.rowsOf(p.chunks, byHash));
    });
  }

  /** A streamed file's savepoint is open: the bulk transaction must not be committed now. */
  get midFile(): boolean {
    return this.streamPos !== null;
  }

  /**
   * Write a queued file or part: why it failed, null when the file is written, undefined for
   * a part of a streamed file before its last.
   */
  write(p: PendingFile, byHash: Map<string, Float32Array>): Promise<string | null | undefined> {
    return p.part ? this.writePart(p, p.part, byHash) : this.writeOne(p, byHash);
  }

  private rowsOf(chunks: readonly PreparedChunk[], byHash: Map<string, Float32Array>): ChunkRow[] {
    return chunks.map((c) => ({ ...c, vector: this.o.vectors ? (byHash.get(c.bodyHash) ?? null) : null }));
  }

  /**
   * Write one file so that its failure stops only it: in bulk mode inside a savepoint that a
   * failure rolls back, else in its own transaction(s). Returns why it failed (the file is
   * then skipped and reported with the unreadable ones), or null. Cancelling still throws.
   */
  private async writeOne(p: PendingFile, byHash: Map<string, Float32Array>): Promise<string | null> {
    const { db, store } = this.o;
    const steps = writeSteps(p.chunks);
    // In bulk mode the savepoint keeps the file whole, so any file is written in steps.
    const big = !this.o.bulk && p.chunks.length > STEP_CHUNKS;
    if (this.o.bulk) db.exec('SAVEPOINT cairn_file');
    try {
      if (big || this.o.bulk) await this.writeInSteps(p, steps, byHash);
      else this.writeFile(p, byHash);
      if (this.o.bulk) db.exec('RELEASE cairn_file');
      return null;
    } catch (err) {
      if (this.o.bulk) db.exec('ROLLBACK TO cairn_file; RELEASE cairn_file');
      // A big file written in steps has lost its old rows already: drop what it got and its
      // files row, so the next sync takes it for new and tries again.
      else if (big) db.transaction(() => store.deleteFile(p.file.path))();
      if ((err as Error).name === 'AbortError') throw err;
      return writeFailure(err);
    }
  }

  /**
   * A file with many chunks (a huge MEMORY.md) is written in steps, each a short transaction;
   * its files row is marked unfinished first, so an interruption is redone by the next sync.
   * In bulk mode (inside the file's savepoint) every file is written this way, yielding
   * between steps, and FTS5 segments are merged every BULK_COMMIT_CHUNKS chunks, as between files.
   */
  private async writeInSteps(p: PendingFile, steps: readonly PreparedChunk[][], byHash: Map<string, Float32Array>): Promise<void> {
    if (!this.o.bulk) this.markUnfinished(p.file);
    await this.insertSteps(steps, byHash, { at: 0, prev: 0, unflushed: 0 }, true);
    this.o.store.putFile(p.file);
  }

  /** Incremental sync: drop a file's old rows and mark its files row unfinished (redone by the next sync if cut short). */
  private markUnfinished(file: FileRow): void {
    const { db, store } = this.o;
    db.transaction(() => {
      store.dropChunks(file.path);
      store.putFile({ ...file, hash: '', mtime: 0 });
    })();
  }

  /**
   * One part of a streamed file: the first opens the file (a savepoint in a rebuild, else its
   * old rows dropped and its files row marked unfinished, as writeInSteps does), the last
   * writes its files row and closes it. Returns why it failed, null when the file is done,
   * undefined for a part before the last. A failure drops all the file's rows written so far.
   */
  private async writePart(p: PendingFile, part: FilePart, byHash: Map<string, Float32Array>): Promise<string | null | undefined> {
    const { db, store } = this.o;
    if (this.dropping === p.file.path) {
      if (part.last) this.dropping = null;
      return undefined;
    }
    try {
      if (part.first) {
        if (this.o.bulk) db.exec('SAVEPOINT cairn_file');
        else this.markUnfinished(p.file);
        this.streamPos = { at: 0, prev: 0, unflushed: 0 };
      }
      if (part.failed !== undefined) throw Object.assign(new Error(part.failed), { readFailed: true });
      await this.insertSteps(writeSteps(p.chunks), byHash, this.streamPos!, part.last);
      if (!part.last) return undefined;
      store.putFile(p.file);
      if (this.o.bulk) db.exec('RELEASE cairn_file');
      this.streamPos = null;
      return null;
    } catch (err) {
      if (this.streamPos !== null) {
        if (this.o.bulk) db.exec('ROLLBACK TO cairn_file; RELEASE cairn_file');
        else db.transaction(() => store.deleteFile(p.file.path))();
      }
      this.streamPos = null;
      if (!part.last) this.dropping = p.file.path;
      if ((err as Error).name === 'AbortError') throw err;
      return (err as { readFailed?: boolean }).readFailed ? (err as Error).message : writeFailure(err);
    }
  }

  /**
   * Insert `steps` of a file's chunks (bulk: inside its savepoint, yielding between steps;
   * else a transaction each), flushing FTS5's pending terms and merging segments as they grow.
   * `pos` carries over between the parts of a streamed file; `endsFile`: these are its last.
   */
  private async insertSteps(steps: readonly PreparedChunk[][], byHash: Map<string, Float32Array>, pos: StepPos, endsFile: boolean): Promise<void> {
    const { db, store } = this.o;
    for (const step of steps) {
      const rows = this.rowsOf(step, byHash);
      if (this.o.bulk) store.insertChunks(rows);
      else db.transaction(() => store.insertChunks(rows))();
      // FTS5 holds the file's terms in memory until the next savepoint (the files row's
      // upsert), then writes them in one piece: a big file's would be one long step.
      if (this.o.bulk && (pos.unflushed += step.length) >= STEP_CHUNKS && !(endsFile && step === steps[steps.length - 1])) {
        db.exec('SAVEPOINT cairn_step; RELEASE cairn_step');
        pos.unflushed = 0;
      }
      // After the step that starts past a multiple of BULK_COMMIT_CHUNKS within the file.
      if (this.o.bulk && pos.at > 0 && Math.floor(pos.at / BULK_COMMIT_CHUNKS) > Math.floor(pos.prev / BULK_COMMIT_CHUNKS)) await mergeFts(db, this.o.yieldNow, this.o.signal);
      pos.prev = pos.at;
      pos.at += step.length;
      if (steps.length > 1) await this.o.yieldNow(!this.o.bulk);
    }
  }

}
