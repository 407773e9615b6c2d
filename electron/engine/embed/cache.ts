/**
 * The embedding cache (SPEC §6): vectors keyed by (provider, model, text hash), so
 * unchanged chunks are never embedded twice — across reindexes, and across agents when the
 * store is shared. `CachedEmbedder` wraps any Embedder; where the vectors live is the
 * store's business (the index keeps them in its `embedding_cache` table; an in-memory LRU
 * is provided here for tests and short-lived processes).
 */
import crypto from 'node:crypto';
import type { EmbedOptions, Embedder } from './types';

/** Hash of a text as used in cache keys (sha256, hex). */
export function textHash(text: string): string {
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Where cached vectors live. Implementations must return copies or never-mutated arrays. */
export interface EmbeddingCacheStore {
  /** Vectors found for `hashes` (missing ones absent from the map). */
  getMany(provider: string, model: string, hashes: string[]): Map<string, Float32Array>;
  putMany(provider: string, model: string, entries: { hash: string; vector: Float32Array }[]): void;
}

/** An in-memory LRU store (Map insertion order = recency). */
export class MemoryEmbeddingCache implements EmbeddingCacheStore {
  private readonly map = new Map<string, Float32Array>();
  constructor(readonly maxEntries = 50_000) {}

  get size(): number {
    return this.map.size;
  }

  getMany(provider: string, model: string, hashes: string[]): Map<string, Float32Array> {
    const out = new Map<string, Float32Array>();
    for (const h of hashes) {
      const key = `${provider}\u0000${model}\u0000${h}`;
      const v = this.map.get(key);
      if (v) {
        this.map.delete(key);
        this.map.set(key, v);
        out.set(h, v);
      }
    }
    return out;
  }

  putMany(provider: string, model: string, entries: { hash: string; vector: Float32Array }[]): void {
    for (const { hash, vector } of entries) {
      const key = `${provider}\u0000${model}\u0000${hash}`;
      this.map.delete(key);
      this.map.set(key, vector);
    }
    while (this.map.size > this.maxEntries) {
      const oldest = this.map.keys().next().value as string;
      this.map.delete(oldest);
    }
  }
}

/** Wraps an embedder: cache hits are served from the store, only misses are embedded. */
export class CachedEmbedder implements Embedder {
  readonly provider: string;
  readonly model: string;
  readonly id: string;
  readonly dims: number;
  /** Counters since creation (for progress reports and tests). */
  readonly stats = { hits: 0, misses: 0 };

  constructor(
    readonly inner: Embedder,
    private readonly store: EmbeddingCacheStore,
  ) {
    this.provider = inner.provider;
    this.model = inner.model;
    this.id = inner.id;
    this.dims = inner.dims;
  }

  async embed(texts: string[], opts: EmbedOptions = {}): Promise<Float32Array[]> {
    // A query may embed differently from the same text as a document (asymmetric models).
    const hashes = texts.map((t) => (opts.kind === 'query' ? textHash(`query\u0000${t}`) : textHash(t)));
    const found = this.store.getMany(this.provider, this.model, [...new Set(hashes)]);
    // Embed each distinct missing text once, even when it repeats within the batch.
    const missing: { hash: string; text: string }[] = [];
    const queued = new Set<string>();
    hashes.forEach((h, i) => {
      if (!found.has(h) && !queued.has(h)) {
        queued.add(h);
        missing.push({ hash: h, text: texts[i] as string });
      }
    });
    const hitCount = texts.length - hashes.filter((h) => !found.has(h)).length;
    this.stats.hits += hitCount;
    this.stats.misses += texts.length - hitCount;
    if (missing.length) {
      const vectors = await this.inner.embed(
        missing.map((m) => m.text),
        { signal: opts.signal, kind: opts.kind, onProgress: opts.onProgress && ((done) => opts.onProgress?.(hitCount + done, texts.length)) },
      );
      const entries = missing.map((m, i) => ({ hash: m.hash, vector: vectors[i] as Float32Array }));
      this.store.putMany(this.provider, this.model, entries);
      for (const e of entries) found.set(e.hash, e.vector);
    }
    opts.onProgress?.(texts.length, texts.length);
    return hashes.map((h) => Float32Array.from(found.get(h) as Float32Array));
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}
