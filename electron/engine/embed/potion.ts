/**
 * The default static embedder (SPEC §6): potion-base-8M, model2vec static embeddings
 * distilled from bge-base-en-v1.5 (MIT, MinishLab). It ships with Cairn as one 8 MB file
 * (`resources/models/potion-base-8M.int8.bin`, the CAIRNSV1 layout of static-format.ts:
 * 29,528 WordPiece pieces × 256 int8 dims with a per-row scale), rebuilt from its published
 * weights by scripts/build-potion-model.ts. Nothing is downloaded or converted at run time.
 *
 * A text's vector is model2vec's: the BERT WordPiece tokens of the text (wordpiece.ts,
 * unknown tokens left out, at most 512), the mean of their rows, L2-normalised.
 * Deterministic: same text, same bytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EmbedOptions, Embedder } from './types';
import type { StaticModel } from './static-format';
import { StaticModelCache } from './model-cache';
import { bertWords, wordPieces } from './wordpiece';
import { embedEach, l2normalize } from './vector';

/** Model name of the potion embedder; part of the index identity. */
export const POTION_MODEL_NAME = 'potion-base-8M-int8';
/** The shipped model's file name (in `resources/models/`). */
export const POTION_MODEL_FILE = 'potion-base-8M.int8.bin';

/** model2vec's default `max_length`: tokens past it do not count. */
const MAX_TOKENS = 512;
/**
 * Row lists cached per word, bounded: the cache is cleared when it grows past this. 30k, not
 * 200k: an entry costs a few hundred bytes of the embed worker's heap, and a big note's
 * unique words (numbers, ids, names) grew it by ~40 MB of a 200 MB note's peak RSS
 * (docs/benchmarks.md, "Issue 40", "200 MB note"); the words that repeat stay cached.
 */
const MAX_CACHED_WORDS = 30_000;
const UNKNOWN: readonly number[] = [];

/**
 * The shipped model file: `resources/models/` of the checkout or app, found from this
 * module's location (engine sources, the CLI bundle's chunk, the worker bundles or the
 * app's CommonJS main bundle sit two or three levels below it); in a packaged app, the
 * unpacked copy beside the asar.
 */
export function shippedPotionModel(): string {
  const here = typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url));
  const tried: string[] = [];
  for (let dir = here, i = 0; i < 5; i++, dir = path.dirname(dir)) {
    const file = path.join(dir, 'resources', 'models', POTION_MODEL_FILE).replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
    if (fs.existsSync(file)) return file;
    tried.push(file);
  }
  throw new Error(`static embedder: ${POTION_MODEL_FILE} not found (looked in ${tried.join(', ')}; reinstall Cairn)`);
}

/** The potion embedder over a loaded model. */
export class PotionEmbedder implements Embedder {
  readonly provider = 'static';
  readonly model = POTION_MODEL_NAME;
  readonly id = `static:${POTION_MODEL_NAME}`;
  readonly dims: number;
  private readonly words = new Map<string, readonly number[]>();
  private readonly scratch: number[] = [];

  constructor(private readonly vectors: StaticModel) {
    this.dims = vectors.dims;
  }

  /** The rows of `word`'s pieces (none for the unknown token), cached. */
  private rowsOf(word: string): readonly number[] {
    let rows = this.words.get(word);
    if (rows === undefined) {
      const out = this.scratch;
      out.length = 0;
      rows = wordPieces(word, this.vectors, out) ? out.slice() : UNKNOWN;
      if (this.words.size >= MAX_CACHED_WORDS) this.words.clear();
      this.words.set(word, rows);
    }
    return rows;
  }

  /** The token rows of `text` in order, at most MAX_TOKENS (for tests and debugging). */
  tokenRows(text: string): number[] {
    const out: number[] = [];
    for (const w of bertWords(text)) {
      for (const r of this.rowsOf(w)) {
        if (out.length === MAX_TOKENS) return out;
        out.push(r);
      }
    }
    return out;
  }

  /** Embed one text synchronously. */
  embedOne(text: string): Float32Array {
    const rows = this.tokenRows(text);
    const out = new Float32Array(this.dims);
    // Ascending row order: the float sum does not depend on token order. A row repeated k
    // times is added once with k times the weight (tokens repeat a lot within a chunk).
    rows.sort((a, b) => a - b);
    const w = rows.length ? 1 / rows.length : 0;
    for (let i = 0; i < rows.length; ) {
      const r = rows[i] as number;
      let j = i + 1;
      while (j < rows.length && rows[j] === r) j++;
      this.vectors.addTo(out, r, (j - i) * w);
      i = j;
    }
    // No known token (empty text): a zero vector, not NaN.
    return l2normalize(out);
  }

  async embed(texts: string[], opts: EmbedOptions = {}): Promise<Float32Array[]> {
    return embedEach(texts, opts, (t) => this.embedOne(t));
  }

  async dispose(): Promise<void> {
    this.words.clear();
  }
}

/**
 * The potion embedder over `file` (default the shipped model): one 8 MB read, or none
 * when `cache` (the engine's STATIC_MODELS member) holds it already.
 */
export async function createPotionEmbedder(opts: { file?: string; cache?: StaticModelCache } = {}): Promise<PotionEmbedder> {
  const file = opts.file ?? shippedPotionModel();
  return new PotionEmbedder(await (opts.cache ?? new StaticModelCache()).load(file));
}
