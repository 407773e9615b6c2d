/**
 * Small vector helpers shared by every embedder: L2 normalisation that never yields NaN
 * (a zero vector stays zero).
 */
import { throwIfAborted as throwIfAbortedAs } from '../util/abort';
import type { EmbedOptions } from './types';

/** L2-normalise `v` in place and return it; a zero (or non-finite) vector becomes all zeros. */
export function l2normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i] as number;
    sum += x * x;
  }
  if (!(sum > 0) || !Number.isFinite(sum)) {
    v.fill(0);
    return v;
  }
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) * inv;
  return v;
}

/** Copy any numeric array into a normalised Float32Array. */
export function toNormalized(values: ArrayLike<number>): Float32Array {
  return l2normalize(Float32Array.from(values));
}

/** Dot product; equals cosine similarity for L2-normalised vectors. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  let s = 0;
  for (let i = 0; i < n; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

/** Throw a standard AbortError when the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  throwIfAbortedAs(signal, 'The operation was aborted', 'any');
}

/**
 * Embed `texts` one by one with a synchronous `embedOne` (the static embedders), yielding
 * every few ms so a big batch never stalls the event loop (STYLE §4), with progress and abort.
 */
export async function embedEach(texts: readonly string[], opts: EmbedOptions, embedOne: (text: string) => Float32Array): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  // process.hrtime, not performance.now(): the global `performance` loads node:perf_hooks on
  // first use, ~1–2 ms of a one-shot `cairn search` that embeds one query.
  const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
  let last = nowMs();
  for (let i = 0; i < texts.length; i++) {
    throwIfAborted(opts.signal);
    out.push(embedOne(texts[i] as string));
    if (nowMs() - last > 8) {
      opts.onProgress?.(i + 1, texts.length);
      await new Promise((r) => setImmediate(r));
      last = nowMs();
    }
  }
  opts.onProgress?.(texts.length, texts.length);
  return out;
}
