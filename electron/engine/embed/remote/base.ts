/**
 * The shared shape of the remote embedders: split texts into batches the API accepts,
 * send them one after another (progress after each, abort between them), check that every
 * vector has the model's size, and L2-normalise. Each provider supplies only its wire format.
 */
import type { EmbedOptions, Embedder } from '../types';
import { toNormalized, throwIfAborted } from '../vector';
import { RemoteEmbedError, type RemoteOptions } from './http';

/** One provider's wire format. */
export interface RemoteProtocol {
  provider: string;
  defaultModel: string;
  defaultBatchSize: number;
  /** Known vector sizes, so creating an embedder needs no request. */
  knownDims: Record<string, number>;
  /** Embed one batch; vectors in input order, not yet normalised. */
  embedBatch(texts: string[], model: string, opts: RemoteOptions, signal?: AbortSignal, kind?: 'document' | 'query'): Promise<number[][]>;
}

export class RemoteEmbedder implements Embedder {
  readonly provider: string;
  readonly model: string;
  readonly id: string;

  constructor(
    private readonly protocol: RemoteProtocol,
    private readonly opts: RemoteOptions,
    readonly dims: number,
  ) {
    this.provider = protocol.provider;
    this.model = opts.model || protocol.defaultModel;
    this.id = `${this.provider}:${this.model}`;
  }

  async embed(texts: string[], opts: EmbedOptions = {}): Promise<Float32Array[]> {
    const size = Math.max(1, this.opts.batchSize ?? this.protocol.defaultBatchSize);
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += size) {
      throwIfAborted(opts.signal);
      const batch = texts.slice(i, i + size);
      // Empty strings are rejected by some APIs; they embed to the zero vector locally.
      const nonEmpty = batch.map((t, j) => [t, j] as const).filter(([t]) => t.trim().length > 0);
      const vectors = nonEmpty.length ? await this.protocol.embedBatch(nonEmpty.map(([t]) => t), this.model, this.opts, opts.signal, opts.kind) : [];
      if (vectors.length !== nonEmpty.length) {
        throw new RemoteEmbedError(this.provider, 200, `${this.provider} embeddings: sent ${nonEmpty.length} texts, got ${vectors.length} vectors back`);
      }
      const results: Float32Array[] = batch.map(() => new Float32Array(this.dims));
      nonEmpty.forEach(([, j], k) => {
        const v = vectors[k] as number[];
        if (v.length !== this.dims) {
          throw new RemoteEmbedError(
            this.provider,
            200,
            `${this.provider} embeddings: model ${this.model} returned ${v.length} dimensions, expected ${this.dims} (set memorySearch.model or rebuild the index)`,
          );
        }
        results[j] = toNormalized(v);
      });
      out.push(...results);
      opts.onProgress?.(out.length, texts.length);
    }
    return out;
  }

  async dispose(): Promise<void> {
    // Stateless HTTP: nothing to release.
  }
}

/** Create a remote embedder, probing the vector size with one request when it is not known. */
export async function createRemoteEmbedder(protocol: RemoteProtocol, opts: RemoteOptions, signal?: AbortSignal): Promise<RemoteEmbedder> {
  const model = opts.model || protocol.defaultModel;
  let dims = opts.dims ?? protocol.knownDims[model];
  if (!dims) {
    const [probe] = await protocol.embedBatch(['dimension probe'], model, opts, signal);
    dims = probe?.length ?? 0;
    if (!dims) throw new RemoteEmbedError(protocol.provider, 200, `${protocol.provider} embeddings: model ${model} returned an empty vector`);
  }
  return new RemoteEmbedder(protocol, { ...opts, model }, dims);
}
