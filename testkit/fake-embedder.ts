/**
 * A deterministic test Embedder: feature-hashed bag of words (CJK as uni+bigrams), L2
 * normalised. Texts sharing words get similar vectors, so ranking is predictable. Knobs make
 * it fail on demand (to test fallbacks and an aborted rebuild) and count calls (cache hits).
 */
import type { Embedder, EmbedOptions } from '../electron/engine/embed/types';
import { similarityTokens } from '../shared/text/tokens';

export interface FakeEmbedderOptions {
  provider?: string;
  model?: string;
  dims?: number;
  /** Throw on every call from this call number (1-based) on. */
  failFromCall?: number;
  /** Words treated as the same (paraphrase): each maps to a canonical word. */
  synonyms?: Record<string, string>;
}

function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class FakeEmbedder implements Embedder {
  readonly provider: string;
  readonly model: string;
  readonly dims: number;
  calls = 0;
  textsEmbedded = 0;
  failFromCall: number | undefined;

  constructor(private readonly o: FakeEmbedderOptions = {}) {
    this.provider = o.provider ?? 'fake';
    this.model = o.model ?? 'bag-of-words-v1';
    this.dims = o.dims ?? 256;
    this.failFromCall = o.failFromCall;
  }

  get id(): string {
    return `${this.provider}:${this.model}`;
  }

  vector(text: string): Float32Array {
    const v = new Float32Array(this.dims);
    for (const raw of similarityTokens(text)) {
      const t = this.o.synonyms?.[raw] ?? raw;
      const h = fnv(`${this.model}:${t}`);
      v[h % this.dims]! += (h & 0x80000000) !== 0 ? -1 : 1;
    }
    let n = 0;
    for (const x of v) n += x * x;
    n = Math.sqrt(n);
    if (n > 0) for (let i = 0; i < v.length; i++) v[i]! /= n;
    return v;
  }

  async embed(texts: string[], opts: EmbedOptions = {}): Promise<Float32Array[]> {
    this.calls++;
    if (opts.signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    if (this.failFromCall !== undefined && this.calls >= this.failFromCall) throw new Error('fake embedder: service unavailable');
    this.textsEmbedded += texts.length;
    const out = texts.map((t) => this.vector(t));
    opts.onProgress?.(texts.length, texts.length);
    return out;
  }

  async dispose(): Promise<void> {}
}
